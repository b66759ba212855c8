// Browser entry of the menu island, loaded by the runtime on demand.
export { default } from "../islands/menu";
export { hydrate } from "../hydrate";
