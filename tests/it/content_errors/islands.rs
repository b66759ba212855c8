//! Island files against the islands registry (src/islands/registry.rs),
//! checked as the project loads, by the build and by `curbside check` alike;
//! these cases edit a frontend/ of their own.

use super::case::node_build;
use crate::support::fixture::Fixture;

/// Builds `$fixture`, checks that it fails at `$at` and snapshots the
/// message (as `fails_at!` does), then checks that `curbside check` reports the
/// same first line.
macro_rules! build_and_check_fail_at {
    ($fixture:expr, $at:expr) => {{
        let _node = node_build();
        let site = $fixture;
        let stderr = site.build_fails_at($at);
        let checked = site.check();
        let checked = String::from_utf8_lossy(&checked.stderr);
        let first = stderr.lines().next().unwrap_or_default();
        assert!(
            checked.lines().any(|line| line == first),
            "curbside check should report {first:?}, but said:\n{checked}"
        );
        insta::assert_snapshot!(stderr);
    }};
}

#[test]
fn island_importing_the_props_types_without_a_registry_entry() {
    let site = Fixture::copy_with_own_frontend();
    site.write(
        "frontend/src/islands/opening-hours.tsx",
        r#"import type { MenuProps } from "../shared/island-types";

export default function OpeningHours({ label }: MenuProps) {
  return <p>{label}</p>;
}
"#,
    );
    build_and_check_fail_at!(site, "frontend/src/islands/opening-hours.tsx");
}

#[test]
fn island_component_taking_props_without_a_registry_entry() {
    let site = Fixture::copy_with_own_frontend();
    site.write(
        "frontend/src/islands/hours.tsx",
        "export default function Hours({ days }: { days: string[] }) {\n  return <p>{days.join(\", \")}</p>;\n}\n",
    );
    build_and_check_fail_at!(site, "frontend/src/islands/hours.tsx");
}

#[test]
fn registry_entry_without_its_island_file() {
    let site = Fixture::copy_with_own_frontend();
    site.remove("frontend/src/islands/pricing.tsx");
    build_and_check_fail_at!(site, "frontend/src/islands");
}
