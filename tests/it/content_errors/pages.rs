//! Pages: front matter missing or left open, dates and labels without each
//! other, file names no address can have, subfolders and broken links.

use super::case::{fails_at, project};

#[test]
fn page_without_front_matter() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "---\n# yaml-language-server: $schema=../schemas/page.schema.json\n",
        "# yaml-language-server: $schema=../schemas/page.schema.json\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:1:1");
}

#[test]
fn page_front_matter_not_closed() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "date: 2025-08-25\n---\n",
        "date: 2025-08-25\n\n",
    );
    fails_at!(site, "content/pages/termsofservice.md:1:1");
}

#[test]
fn page_linked_from_a_place_there_is_no_link_for() {
    let site = project();
    site.write(
        "content/pages/about.md",
        "---\ntitle: About Us\ndescription: Who we are.\nlink: sidebar\n---\n\nHello.\n",
    );
    fails_at!(site, "content/pages/about.md:4:7");
}

#[test]
fn page_date_without_date_label() {
    let site = project();
    site.replace(
        "content/pages/termsofservice.md",
        "date_label: Effective\n",
        "",
    );
    fails_at!(site, "content/pages/termsofservice.md:5:7");
}

#[test]
fn page_date_label_without_date() {
    let site = project();
    site.replace("content/pages/termsofservice.md", "date: 2025-08-25\n", "");
    fails_at!(site, "content/pages/termsofservice.md:5:13");
}

#[test]
fn page_file_name_with_capitals_and_a_space() {
    let site = project();
    site.write(
        "content/pages/About Us.md",
        "---\ntitle: About us\ndescription: Who we are.\n---\n\nWe are neighbours.\n",
    );
    fails_at!(site, "content/pages/About Us.md");
}

#[test]
fn page_file_name_taken_by_the_home_page() {
    let site = project();
    site.write(
        "content/pages/index.md",
        "---\ntitle: Home\ndescription: Home.\n---\n\nHello.\n",
    );
    fails_at!(site, "content/pages/index.md");
}

#[test]
fn page_in_a_subfolder() {
    let site = project();
    site.write(
        "content/pages/legal/cookies.md",
        "---\ntitle: Cookies\ndescription: We set none.\n---\n\nNone.\n",
    );
    fails_at!(site, "content/pages/legal/cookies.md");
}

#[test]
fn pages_symlink_loop() {
    let site = project();
    site.symlink("..", "content/pages/archive/pages");
    fails_at!(site, "content/pages/archive/pages");
}

#[test]
fn pages_symlink_to_nothing() {
    let site = project();
    site.symlink("../drafts/about.md", "content/pages/about.md");
    fails_at!(site, "content/pages/about.md");
}
