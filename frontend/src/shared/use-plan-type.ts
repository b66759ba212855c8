// The plan as an island shows it, for every island that shows one. React only: the loader
// reads the same store through ./plan, without React.
import { startTransition, useEffect, useState } from "react";
import { onPlanChange, readPlanType } from "./plan";
import type { PlanType } from "./island-types";

/**
 * The saved plan from the first render (the page's plan script has already shown it in the
 * server HTML, so hydration matches, and a click replayed into hydration sees the real plan),
 * then every plan change. Re-rendered after the press's paint: the page's plan script has
 * already shown the plan in the island's markup. `plan` is the placement's own choice, which
 * the server render follows (it has no storage). Also returns what brings this island back to
 * the store when its state lags behind it (while it hydrates).
 */
export function usePlanType(plan: PlanType | null): [PlanType, () => void] {
  const [planType, setPlanType] = useState<PlanType>(() => readPlanType(plan));
  useEffect(() => {
    setPlanType(readPlanType(plan));
    // A toggle, another toggle, the form's plan select or a Start button may change the plan.
    return onPlanChange((next) => startTransition(() => setPlanType(next)));
  }, [plan]);
  const follow = (): void => startTransition(() => setPlanType(readPlanType(plan)));
  return [planType, follow];
}
