// Island props as the page carries them: JSON in <script type="application/json" id="props-NAME">,
// written by the build. Read by the runtime to hydrate, and by the loader before any island has.

/** The props of island `name`; throws when the page has none. */
export function readProps(name: string): unknown {
  const script = document.getElementById(`props-${name}`);
  if (!(script instanceof HTMLScriptElement)) throw new Error(`no props-${name} script`);
  return JSON.parse(script.textContent ?? "");
}

/** The props of island `name`, or null when the page has no such island. */
export function findProps<P>(name: string): P | null {
  // The build wrote them from typed structs for exactly this island.
  return document.getElementById(`props-${name}`) ? (readProps(name) as P) : null;
}
