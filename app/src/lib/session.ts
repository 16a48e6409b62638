/**
 * The API key of this tab. sessionStorage lives as long as the tab (a reload keeps it, closing
 * the tab or signing out forgets it) and is never shared with other tabs or sent anywhere by the
 * browser itself: only lib/api.ts reads it, to put it on calls to this origin.
 */
const STORAGE_KEY = "pricing-back-office.api-key";

export const readKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);

export const storeKey = (key: string) => sessionStorage.setItem(STORAGE_KEY, key);

/**
 * The newest D1 session bookmark the API answered this tab (lib/bookmark.ts), beside the key:
 * a reload keeps reading the tab's own writes. Not a secret, but the tab's: signing out forgets it.
 */
const BOOKMARK_KEY = "pricing-back-office.d1-bookmark";

export const readBookmark = (): string | null => sessionStorage.getItem(BOOKMARK_KEY);

export const storeBookmark = (bookmark: string) => sessionStorage.setItem(BOOKMARK_KEY, bookmark);

/** Signing out: the key and the session's bookmark. */
export const forgetKey = () => {
  sessionStorage.removeItem(STORAGE_KEY);
  sessionStorage.removeItem(BOOKMARK_KEY);
};
