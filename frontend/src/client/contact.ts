// Browser entry of the contact island, loaded by the runtime on demand.
export { default } from "../islands/contact";
export { hydrate } from "../hydrate";
