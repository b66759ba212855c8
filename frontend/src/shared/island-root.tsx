// Wraps every island on both sides, so the server HTML and the hydrated tree have
// the same shape (useId values depend on it). It renders no DOM of its own; in the
// browser its effect tells the runtime that hydration has committed.
import { useEffect, type ReactNode } from "react";

export function IslandRoot({ children, onHydrated }: { children: ReactNode; onHydrated?: () => void }) {
  useEffect(() => {
    onHydrated?.();
  }, [onHydrated]);
  return children;
}
