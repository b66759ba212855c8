//! Cycles in a graph of dependencies, each edge labelled with where it is
//! made (a file's line, say), so a failure can point at the code.

use std::collections::{BTreeMap, BTreeSet};

/// From each node, the nodes it depends on, each with its label.
pub(super) type Edges<K> = BTreeMap<K, BTreeMap<K, String>>;

/// Every cycle, one for each group of nodes that reach one another, as
/// `step → step → first node`, where `step` shows a node and its edge's
/// label.
pub(super) fn cycles<K: Ord + Clone>(
    edges: &Edges<K>,
    name: &dyn Fn(&K) -> String,
    step: &dyn Fn(&K, &str) -> String,
) -> Vec<String> {
    let mut seen: BTreeSet<K> = BTreeSet::new();
    let mut cycles = Vec::new();
    for start in edges.keys() {
        if seen.contains(start) {
            continue;
        }
        // The shortest way from `start` back to itself, if any.
        let mut came_from: BTreeMap<K, K> = BTreeMap::new();
        let mut frontier = vec![start.clone()];
        let mut closed = None;
        'search: while !frontier.is_empty() {
            let mut next = Vec::new();
            for node in frontier {
                for target in edges.get(&node).into_iter().flat_map(|out| out.keys()) {
                    if target == start {
                        closed = Some(node.clone());
                        break 'search;
                    }
                    if !came_from.contains_key(target) {
                        came_from.insert(target.clone(), node.clone());
                        next.push(target.clone());
                    }
                }
            }
            frontier = next;
        }
        let Some(mut last) = closed else { continue };
        let mut chain = vec![start.clone()];
        while last != *start {
            chain.push(last.clone());
            last = came_from[&last].clone();
        }
        chain[1..].reverse();
        chain.push(start.clone());
        seen.extend(chain.iter().cloned());
        let steps: Vec<String> = chain
            .windows(2)
            .map(|pair| step(&pair[0], &edges[&pair[0]][&pair[1]]))
            .collect();
        cycles.push(format!("{} → {}", steps.join(" → "), name(start)));
    }
    cycles
}
