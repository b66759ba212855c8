//! curbside: a static site generator for the Curbside Brookings website.
//!
//! The pipeline runs in one direction, one module per stage:
//! [`content`] (load and validate) → [`islands`] (bundle and server-render the
//! React islands through Node) → [`render`] (pages through minijinja) →
//! [`output`] (write `dist/`, swapped in whole). [`build`] drives it;
//! [`serve`] previews it. Every message a user sees is a
//! [`diagnostics::Diagnostic`].

pub mod build;
pub mod content;
pub mod diagnostics;
pub mod islands;
pub mod output;
pub mod render;
pub mod serve;
pub mod styles;
