//! `curbside serve` over real sockets: the URL table of static hosting,
//! requests that try to leave the folder, headers, the form service's
//! stand-in, many and slow clients, and live reload with the real binary
//! watching a copy of the project.

mod form;
mod live_reload;
mod start;
mod static_files;
