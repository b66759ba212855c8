// A Netlify build plugin of this repository (netlify.toml names it): once Netlify has
// deployed the site, `curbside verify` checks that deploy at its own address (DEPLOY_URL)
// against the build that was just published. onSuccess runs after the deploy is live, so it
// cannot stop it; a failure is reported on the deploy's summary as this plugin's. A trial
// deployment of the sample content passes with the environment variable
// CURBSIDE_ALLOW_SAMPLES=true. tests/browser/hosts/ runs it against netlify dev.

/** The same binary the build command ran, through cargo as there. */
const CURBSIDE = ["cargo", ["run", "--release", "--locked", "--"]];

module.exports = {
  /** @param {{ utils: { run: (file: string, args: string[]) => Promise<unknown>, build: { failPlugin: (message: string, options?: { error?: unknown }) => void } } }} options */
  async onSuccess({ utils }) {
    const address = process.env.DEPLOY_URL;
    if (!address) {
      utils.build.failPlugin("curbside verify: Netlify gave no DEPLOY_URL to verify");
      return;
    }
    const flags = process.env.CURBSIDE_ALLOW_SAMPLES === "true" ? ["--allow-samples"] : [];
    const [file, prefix] = CURBSIDE;
    try {
      await utils.run(file, [...prefix, "verify", address, ...flags]);
    } catch (error) {
      utils.build.failPlugin(`curbside verify: the deploy at ${address} is not the build (its report is above)`, { error });
    }
  },
};
