//! curbside: a static site generator for the Curbside Brookings website.
//!
//! A build runs [`content`] (load, validate, fill in placeholders) →
//! [`render`] (pages through minijinja, with markers where Node's work goes)
//! → [`node`] (the island server bundles and server-renders the [`islands`]
//! and minifies the [`styles`]) → [`render::Placer`] (that work put into
//! the pages) → [`output`] (write `dist/`, swapped in whole); the pages go
//! through the last two a batch at a time. [`pipeline`] drives it; [`serve`]
//! previews it.
//!
//! Dependencies point one way: the helpers ([`diagnostics`], [`text`]) →
//! [`output`] (a file of the site, the headers and server configuration that
//! travel with it, and the writing of `dist/`; it imports nothing above it) →
//! [`media`] → [`content`] → [`islands`] → [`node`] / [`styles`] / [`render`]
//! → [`pipeline`] → [`serve`]; [`verify`] uses [`output`] only, to check a
//! deployment against what the build wrote. Every message a user sees is a
//! [`diagnostics::Diagnostic`].

pub mod check;
pub mod confined;
pub mod content;
pub mod diagnostics;
pub mod islands;
pub mod media;
pub mod node;
pub mod output;
pub mod pipeline;
pub mod render;
pub mod serve;
pub mod styles;
pub mod text;
pub mod verify;
