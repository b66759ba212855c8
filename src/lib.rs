//! curbside: a static site generator for the Curbside Brookings website.
//!
//! A build runs [`content`] → [`render`] (with markers for Node's work) →
//! [`node`] (bundles and renders the [`islands`], minifies the [`styles`]) →
//! [`render::Placer`] → [`output`], the last two a batch of pages at a time;
//! [`pipeline`] drives it, [`serve`] previews it. Dependencies point one way:
//! [`diagnostics`], [`text`] → [`output`] → [`media`] → [`content`] →
//! [`islands`] → [`node`] / [`styles`] / [`render`] → [`pipeline`] → [`serve`];
//! [`verify`] uses [`output`] only.

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
