//! The integration tests, one binary: every module below checks one part of
//! curbside through the real binary, the real build or real sockets, and
//! `support` holds what they share. One binary links the crate and its
//! dependencies once, where a binary a file linked them once a file.
//!
//! All the tests run in this one process, two or more at a time and from
//! every module at once: none changes what the process shares (its
//! environment, working folder or limits). A child process gets its
//! environment on its own `Command`, and measures itself (peak memory).

mod support;

mod build;
mod build_speed;
mod check;
mod colours;
mod content_errors;
mod escaping;
mod hostile_files;
mod inert_files;
mod island_props;
mod islands;
mod pages;
mod pictures;
mod placeholders;
mod prices;
mod schemas;
mod serve;
mod serve_hardening;
mod share_card;
mod structure;
mod verify;
