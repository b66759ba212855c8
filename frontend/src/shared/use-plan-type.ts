// The plan as an island shows it, for every island that shows one. React only: the loader
// reads the same store through ./plan, without React.
import { startTransition, useEffect, useState } from "react";
import { onPlanChange, readPlanType } from "./plan";
import type { PlanType } from "./island-types";

/**
 * The saved plan from the first render (the page's plan script has already shown it in the
 * server HTML, so hydration matches), then every plan change, as a transition: normally
 * rendered after the press's paint, since the page's plan script has already written the plan
 * into the island's markup. `plan` is the placement's own choice, which the server render
 * follows (it has no storage). Also returns what brings this island's state back to the store
 * when it lags behind it: between a press and the commit of its transition, or when another tab
 * saved a plan.
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
