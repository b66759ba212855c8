// Browser entry of the pricing island, loaded by the runtime on demand.
export { default } from "../islands/pricing";
export { hydrate } from "../hydrate";
