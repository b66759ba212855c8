// Island props as the page carries them: JSON in <script type="application/json" id="props-ID">,
// one for each placement (ID is its element's data-placement), written by the build. Read by the
// runtime to hydrate, and by the loader before any island has.

/** A JSON object, as props and their parts are: what the page's scripts check before reading a prop. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The props of the placement `id` (its element's data-placement); throws when the page has none. */
export function readProps(id: string): unknown {
  const script = document.getElementById(`props-${id}`);
  if (!(script instanceof HTMLScriptElement)) throw new Error(`no props-${id} script`);
  return JSON.parse(script.textContent ?? "");
}

/** The props of every island placed in the page, in page order (one that does not parse is left out). */
export function allProps(): unknown[] {
  const found: unknown[] = [];
  for (const script of document.querySelectorAll('script[type="application/json"][id^="props-"]')) {
    try {
      found.push(JSON.parse(script.textContent ?? ""));
    } catch {
      // Its island reports it when it hydrates.
    }
  }
  return found;
}
