// When an island should hydrate. Each function calls `fire` at most once and
// returns a function that cancels whatever it still waits for.
import { ENGAGEMENT_EVENTS, hasEngaged } from "../shared/engaged";

export type Cancel = () => void;

/** Generous, so the island is usually ready by the time it scrolls into view. */
export const VISIBLE_ROOT_MARGIN = "200px";

export function whenIdle(fire: () => void): Cancel {
  // Safari has no requestIdleCallback; a short timeout still lets the page settle first.
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(fire, { timeout: 2000 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(fire, 200);
  return () => window.clearTimeout(handle);
}

export function whenVisible(element: Element, fire: () => void): Cancel {
  if (typeof IntersectionObserver !== "function") return whenIdle(fire);
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      fire();
    },
    { rootMargin: VISIBLE_ROOT_MARGIN },
  );
  observer.observe(element);
  return () => observer.disconnect();
}

/** The first of `events` on `target`, seen in the capture phase. */
function whenFirst(target: EventTarget, events: readonly string[], fire: () => void): Cancel {
  const handle = (): void => {
    cancel();
    fire();
  };
  const cancel = (): void => {
    for (const type of events) target.removeEventListener(type, handle, true);
  };
  for (const type of events) target.addEventListener(type, handle, { capture: true, passive: true });
  return cancel;
}

/** First focus or pointer press inside the island: the visitor is about to use it. */
export function whenInteracted(element: Element, fire: () => void): Cancel {
  return whenFirst(element, ["focusin", "pointerdown"], fire);
}

/**
 * The visitor's first scroll, touch, press, key or focus anywhere on the page: they are reading,
 * so an island they may use soon can load now, while nothing is fetched for a page that is only
 * loaded (or measured). Never a timer or a paint: a visit that does nothing fetches nothing.
 */
export function whenPageEngaged(fire: () => void): Cancel {
  // Engaged before the runtime started (the loader saw it): at once.
  if (hasEngaged()) {
    fire();
    return () => undefined;
  }
  return whenFirst(window, ENGAGEMENT_EVENTS, fire);
}

/** `wait` starts only once the visitor has engaged (see whenPageEngaged); the result cancels either. */
export function afterEngaged(wait: (fire: () => void) => Cancel, fire: () => void): Cancel {
  let cancelWait: Cancel | undefined;
  const cancelEngaged = whenPageEngaged(() => {
    cancelWait = wait(fire);
  });
  return () => {
    cancelEngaged();
    cancelWait?.();
  };
}

/**
 * Resolves when the browser has nothing more urgent to do (no input, no frame due), so work
 * started then (React's evaluation, a slice of hydration) is least likely to sit in front of a
 * press. Where there is no idle callback (Safari), after the next frame and a task.
 */
export function idle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === "function") {
      window.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    } else {
      window.requestAnimationFrame(() => window.setTimeout(resolve, 0));
    }
  });
}

/** The longest an idle wait lasts on a page that is never idle: the work then goes ahead. */
export const IDLE_TIMEOUT_MS = 1000;

/** Once `query` matches (now or later) and the visitor engages with the page. */
export function whenMedia(query: string, fire: () => void): Cancel {
  if (typeof window.matchMedia !== "function") return whenPageEngaged(fire);
  const list = window.matchMedia(query);
  let cancelEngaged: Cancel | undefined;
  const onChange = (event: MediaQueryListEvent): void => {
    if (!event.matches) return;
    list.removeEventListener("change", onChange);
    cancelEngaged = whenPageEngaged(fire);
  };
  if (list.matches) {
    cancelEngaged = whenPageEngaged(fire);
  } else {
    list.addEventListener("change", onChange);
  }
  return () => {
    list.removeEventListener("change", onChange);
    cancelEngaged?.();
  };
}

export function mediaMatches(query: string): boolean {
  return typeof window.matchMedia !== "function" || window.matchMedia(query).matches;
}
