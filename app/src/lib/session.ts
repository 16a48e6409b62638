/**
 * The API key of this tab. sessionStorage lives as long as the tab (a reload keeps it, closing
 * the tab or signing out forgets it) and is never shared with other tabs or sent anywhere by the
 * browser itself: only lib/api.ts reads it, to put it on calls to this origin.
 */
const STORAGE_KEY = "pricing-back-office.api-key";

export const readKey = (): string | null => sessionStorage.getItem(STORAGE_KEY);

export const storeKey = (key: string) => sessionStorage.setItem(STORAGE_KEY, key);

export const forgetKey = () => sessionStorage.removeItem(STORAGE_KEY);
