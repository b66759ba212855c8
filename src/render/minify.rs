//! HTML minification: each white-space run between tags and in text becomes one
//! character, rendering the same. `pre`, `textarea`, `script` and `style` are
//! kept; quoting, attributes and comments are left alone, so nothing hydration
//! needs is touched.

const RAW: &[&str] = &["pre", "textarea", "script", "style"];

pub fn html(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page.trim_start();
    while !rest.is_empty() {
        match rest.find('<') {
            Some(0) => {
                let tag_end = rest.find('>').map_or(rest.len(), |i| i + 1);
                let tag = &rest[..tag_end];
                out.push_str(tag);
                rest = &rest[tag_end..];
                if let Some(name) = raw_element(tag) {
                    let close = format!("</{name}");
                    let end = find_ascii_case_insensitive(rest, &close).unwrap_or(rest.len());
                    out.push_str(&rest[..end]);
                    rest = &rest[end..];
                }
            }
            found => {
                let end = found.unwrap_or(rest.len());
                collapse_into(&mut out, &rest[..end]);
                rest = &rest[end..];
            }
        }
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

fn raw_element(tag: &str) -> Option<&'static str> {
    // In place: a page has thousands of tags, and lowering each name cost an allocation.
    let name = &tag.as_bytes()[1..];
    let length = name
        .iter()
        .take_while(|byte| byte.is_ascii_alphanumeric())
        .count();
    let name = &name[..length];
    RAW.iter()
        .copied()
        .find(|raw| raw.as_bytes().eq_ignore_ascii_case(name))
}

fn find_ascii_case_insensitive(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

/// Each white-space run becomes a newline if it had one (lines stay short),
/// else a space.
fn collapse_into(out: &mut String, text: &str) {
    let mut run: Option<char> = None;
    for c in text.chars() {
        if c.is_ascii_whitespace() {
            run = Some(if c == '\n' || run == Some('\n') {
                '\n'
            } else {
                ' '
            });
        } else {
            if let Some(space) = run.take() {
                out.push(space);
            }
            out.push(c);
        }
    }
    if let Some(space) = run {
        out.push(space);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_white_space_but_keeps_raw_text() {
        let page = "\n  <p>a   b\n\n  c</p>\n  <pre>  x\n  y</pre> <script>if (a  <  b) {}</script>\n<STYLE> p  { } </STYLE>\n";
        assert_eq!(
            html(page),
            "<p>a b\nc</p>\n<pre>  x\n  y</pre> <script>if (a  <  b) {}</script>\n<STYLE> p  { } </STYLE>\n"
        );
    }

    #[test]
    fn keeps_attributes_and_non_ascii_space_as_written() {
        let page = "<a  href=\"x  y\"  hidden=\"\">\u{a0} z</a>";
        assert_eq!(html(page), "<a  href=\"x  y\"  hidden=\"\">\u{a0} z</a>\n");
    }
}
