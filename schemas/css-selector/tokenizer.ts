/** The CSS Syntax Level 3 tokenizer (§3.3 preprocessing and §4 tokenization) selectors are read with. */
export type Token = TokenBody & { src: string };
type TokenBody =
  | { t: "ident" | "function" | "at" | "string"; v: string }
  | { t: "hash"; v: string; id: boolean }
  | { t: "delim"; v: string }
  | { t: "number" | "percentage"; v: string; int: boolean }
  | { t: "dimension"; v: string; unit: string; int: boolean }
  | {
      t:
        | "ws"
        | "bad"
        | "colon"
        | "semicolon"
        | "comma"
        | "("
        | ")"
        | "["
        | "]"
        | "{"
        | "}"
        | "cdo"
        | "cdc";
    };

const isDigit = (c: string) => c >= "0" && c <= "9";
const isHex = (c: string) => /^[0-9a-fA-F]$/.test(c);
const isIdentStart = (c: string) =>
  /^[a-zA-Z_]$/.test(c) || (c !== "" && c.codePointAt(0)! >= 0x80);
const isNameChar = (c: string) => isIdentStart(c) || isDigit(c) || c === "-";
const isWs = (c: string) => c === " " || c === "\t" || c === "\n";

export function tokenize(input: string): Token[] {
  const s = [...input.replace(/\r\n?|\f/g, "\n").replace(/\0/g, "\uFFFD")];
  let i = 0;
  const at = (k = 0) => s[i + k] ?? "";
  const validEscape = (k = 0) => at(k) === "\\" && at(k + 1) !== "\n"; // `\` + EOF is one (→ U+FFFD)
  const startsIdent = (k = 0) =>
    at(k) === "-"
      ? isIdentStart(at(k + 1)) || at(k + 1) === "-" || validEscape(k + 1)
      : isIdentStart(at(k)) || validEscape(k);
  const startsNumber = (k = 0) => {
    if (at(k) === "+" || at(k) === "-") k++;
    return isDigit(at(k)) || (at(k) === "." && isDigit(at(k + 1)));
  };
  const escape = (): string => {
    i++; // the backslash
    if (at() === "") return "\uFFFD";
    if (isHex(at())) {
      let hex = "";
      while (hex.length < 6 && isHex(at())) hex += s[i++];
      if (isWs(at())) i++;
      const cp = parseInt(hex, 16);
      return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)
        ? "\uFFFD"
        : String.fromCodePoint(cp);
    }
    return s[i++]!;
  };
  const name = (): string => {
    let out = "";
    for (;;) {
      if (isNameChar(at())) out += s[i++];
      else if (validEscape()) out += escape();
      else return out;
    }
  };
  const numeric = (): TokenBody => {
    let int = true;
    if (at() === "+" || at() === "-") i++;
    while (isDigit(at())) i++;
    if (at() === "." && isDigit(at(1))) {
      int = false;
      i++;
      while (isDigit(at())) i++;
    }
    if (
      (at() === "e" || at() === "E") &&
      (isDigit(at(1)) || ((at(1) === "+" || at(1) === "-") && isDigit(at(2))))
    ) {
      int = false;
      i += 2;
      while (isDigit(at())) i++;
    }
    if (startsIdent()) return { t: "dimension", v: "", unit: name(), int };
    if (at() === "%") {
      i++;
      return { t: "percentage", v: "", int };
    }
    return { t: "number", v: "", int };
  };

  const out: Token[] = [];
  while (i < s.length) {
    const start = i;
    const c = at();
    if (c === "/" && at(1) === "*") {
      let j = i + 2;
      while (j < s.length && !(s[j] === "*" && s[j + 1] === "/")) j++;
      i = Math.min(s.length, j + 2); // an unclosed comment runs to the end
      continue;
    }
    let token: TokenBody;
    if (isWs(c)) {
      while (isWs(at())) i++;
      token = { t: "ws" };
    } else if (c === '"' || c === "'") {
      i++;
      let v = "";
      token = { t: "string", v };
      for (;;) {
        const d = at();
        if (d === "") break; // EOF: a string all the same (a parse error, not a failure)
        if (d === c) {
          i++;
          break;
        }
        if (d === "\n") {
          token = { t: "bad" };
          break;
        }
        if (d === "\\") {
          if (at(1) === "") i++;
          else if (at(1) === "\n") i += 2;
          else v += escape();
          continue;
        }
        v += d;
        i++;
      }
      if (token.t === "string") token = { t: "string", v };
    } else if (c === "#") {
      if (isNameChar(at(1)) || validEscape(1)) {
        i++;
        const id = startsIdent();
        token = { t: "hash", v: name(), id };
      } else {
        i++;
        token = { t: "delim", v: "#" };
      }
    } else if ("()[]{},:;".includes(c)) {
      i++;
      const map: Record<string, TokenBody> = {
        "(": { t: "(" },
        ")": { t: ")" },
        "[": { t: "[" },
        "]": { t: "]" },
        "{": { t: "{" },
        "}": { t: "}" },
        ",": { t: "comma" },
        ":": { t: "colon" },
        ";": { t: "semicolon" },
      };
      token = map[c]!;
    } else if ((c === "+" || c === "." || c === "-") && startsNumber()) {
      token = numeric();
    } else if (c === "-" && at(1) === "-" && at(2) === ">") {
      i += 3;
      token = { t: "cdc" };
    } else if (c === "-" && startsIdent()) {
      token = identLike();
    } else if (c === "<" && at(1) === "!" && at(2) === "-" && at(3) === "-") {
      i += 4;
      token = { t: "cdo" };
    } else if (c === "@" && startsIdent(1)) {
      i++;
      token = { t: "at", v: name() };
    } else if (c === "\\") {
      if (validEscape()) token = identLike();
      else {
        i++;
        token = { t: "delim", v: "\\" };
      }
    } else if (isDigit(c)) {
      token = numeric();
    } else if (isIdentStart(c)) {
      token = identLike();
    } else {
      i++;
      token = { t: "delim", v: c };
    }
    if (i === start) i++; // never loop without progress
    out.push({ ...token, src: s.slice(start, i).join("") });
  }
  return out;

  function identLike(): TokenBody {
    const v = name();
    if (at() === "(") {
      i++;
      return { t: "function", v };
    }
    return { t: "ident", v };
  }
}
