import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

/**
 * The page's h1, focused when the page opens, so a keyboard or screen-reader user starts at the
 * top of the new page (hash routing changes no document).
 */
export function PageHeading({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = `${title} · Edge Pricing Service`;
  }, [title]);
  return (
    <header class="page-heading">
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children ? <p class="intro">{children}</p> : null}
    </header>
  );
}
