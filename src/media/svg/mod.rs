//! An SVG as published: the drawing and nothing else. Editors write names,
//! paths and settings into it (`<metadata>`, `inkscape:`, `sodipodi:`,
//! comments), and it may carry code (`<script>`, `onload=`, an animation that
//! sets a `javascript:` link) or reach for other files (`url()`, `@import`).
//! The copy is written anew from allowlists ([`allowed`]): the elements and
//! attributes of a static drawing, each in the list's own spelling; a
//! reference only to a part of the same drawing (`#id`); CSS only where a
//! real tokenizer finds no fetch in it ([`css`]). What cannot be left out
//! without changing the drawing is refused, and so is a file whose text,
//! entities expanded, is over the budget ([`budget`]), before it is parsed.
//!
//! usvg (which reads drawings for the share card) can write back the tree it
//! parses, but it writes text as the outlines of the fonts it found: the copy
//! would lose text as text, and with no font installed, the text itself.

mod allowed;
mod budget;
mod copy;
mod css;

pub use copy::clean;
