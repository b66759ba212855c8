// An island is one file: a fourth one, added to a copy of the project as
// frontend/src/islands/<name>.tsx and placed in a layout as {{ islands.<name> }}, is
// server-rendered into the page and hydrated by the runtime, with nothing registered
// anywhere else (it reads no props, so it needs no entry in the islands registry and gets `{}`).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "../support/page-checks";
import { servedCopy } from "../support/served-copy";

const ISLAND = `import { useState } from "react";

export const hydration = "idle";

export default function Wave() {
  const [waves, setWaves] = useState(0);
  return (
    <button type="button" className="wave" onClick={() => setWaves((n) => n + 1)}>
      Waved {waves} times
    </button>
  );
}
`;

test.describe.configure({ mode: "default" });

const preview = servedCopy({
  prepare: (root) => {
    writeFileSync(join(root, "frontend/src/islands/wave.tsx"), ISLAND);
    writeFileSync(
      join(root, "layouts/home.html"),
      `{% extends "base.html" %}
{% block main %}
{% include "sections/hero.html" %}
<section aria-label="Wave">{{ islands.wave }}</section>
{% include "sections/how_it_works.html" %}
{% include "sections/pricing.html" %}
{% include "sections/faq.html" %}
{% include "sections/contact.html" %}
{% endblock %}
`,
    );
  },
});

test("a new island file is server-rendered into the page, then hydrated by the runtime", { tag: "@any-screen" }, async ({ page }) => {
  const { origin } = preview();
  // The server HTML, as a browser without JavaScript gets it: the island's markup, the strategy
  // its own file declares, its files (its own chunk first), and its (empty) props beside it.
  const html = await (await page.request.get(`${origin}/`)).text();
  expect(html).toMatch(
    /<div class="island island--wave" data-island="wave" data-hydrate="idle" data-placement="wave" data-files="\/assets\/wave-[\w-]+\.js \/assets\/chunk-[\w-]+\.js[^"]*"><button type="button" class="wave">Waved <!-- -->0<!-- --> times<\/button><\/div>/,
  );
  expect(html).toContain('<script type="application/json" id="props-wave">{}</script>');

  const chunks: string[] = [];
  page.on("request", (request) => {
    if (/\/assets\/wave-[\w-]+\.js$/.test(request.url())) chunks.push(request.url());
  });
  await page.goto(`${origin}/`);
  // "idle": once the visitor has engaged (a key here), the runtime hydrates it when the browser
  // is idle, from its own chunk.
  await page.keyboard.press("Shift");
  const island = page.locator('[data-island="wave"]');
  await expect(island).toHaveAttribute("data-hydrated", "");
  expect(chunks).toHaveLength(1);
  await island.getByRole("button").click();
  await expect(island.getByRole("button")).toHaveText("Waved 1 times");
});
