/**
 * A check of C# examples against the generated .NET SDK (`sdk/dotnet`), for machines with no
 * `dotnet` to compile them: every `CloudDb.<Type>` a block names is a class of the SDK, every
 * property an object initializer sets is a member of its class, every member read from a variable
 * holding a resource is one of that resource's, and every field read from an invoke's result is
 * one of the result's. It reads the generated sources as text; it is no compiler.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Each class or struct (an enum's type) of the C# sources under `dir` and the names of its public members. */
export function csharpClasses(dir: string): Map<string, Set<string>> {
  const classes = new Map<string, Set<string>>();
  for (const file of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".cs")) continue;
    const text = fs.readFileSync(path.join(dir, file), "utf8");
    for (const declared of text.matchAll(/\b(?:class|struct)\s+(\w+)[^{]*\{/g)) {
      const body = braced(text, (declared.index ?? 0) + declared[0].length - 1);
      const members = classes.get(declared[1] as string) ?? new Set<string>();
      const member =
        /public\s+(?:(?:static|readonly|new|override|virtual|async)\s+)*[\w.<>[\]?,: ]+?\s+(\w+)\s*(?=[{;=(])/g;
      for (const m of body.matchAll(member)) members.add(m[1] as string);
      classes.set(declared[1] as string, members);
    }
  }
  return classes;
}

/** The text between the brace at `open` and the one that closes it. */
function braced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) return text.slice(open + 1, i);
  }
  return text.slice(open + 1);
}

/** The names set at the top level of an object initializer's body (`Name = ...,`). */
function initialized(body: string): string[] {
  const names: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    const c = body[i];
    if (c === "{" || c === "(" || c === "[") depth++;
    if (c === "}" || c === ")" || c === "]") depth--;
    if ((c === "," && depth === 0) || i === body.length) {
      const name = /^\s*(\w+)\s*=[^=>]/.exec(body.slice(start, i));
      if (name !== null) names.push(name[1] as string);
      start = i + 1;
    }
  }
  return names;
}

/**
 * What `code` names under `alias` (`CloudDb`) that the SDK's classes do not have, one line each
 * (`CloudDb.ProjectArgs has no Nmae`); empty when every name is found.
 */
export function unknownCsharpNames(
  code: string,
  classes: Map<string, Set<string>>,
  alias = "CloudDb",
): string[] {
  const missing: string[] = [];
  const has = (type: string, member: string) => classes.get(type)?.has(member) === true;
  // Input and output types are in the SDK's namespaces `Inputs` and `Outputs`.
  const typeName = `${alias}\\.(?:Inputs\\.|Outputs\\.)?(\\w+)`;
  for (const m of code.matchAll(new RegExp(`\\b${typeName}`, "g"))) {
    if (!classes.has(m[1] as string)) missing.push(`${alias}.${m[1]} is no class of the SDK`);
  }
  for (const m of code.matchAll(new RegExp(`new ${typeName}(?:\\(\\))?\\s*\\{`, "g"))) {
    const type = m[1] as string;
    for (const name of initialized(braced(code, (m.index ?? 0) + m[0].length - 1))) {
      if (!has(type, name)) missing.push(`${alias}.${type} has no ${name}`);
    }
  }
  // A variable holding a resource, or an invoke's output, and the members read from it.
  for (const m of code.matchAll(new RegExp(`var (\\w+) = new ${alias}\\.(\\w+)\\(`, "g"))) {
    for (const read of code.matchAll(new RegExp(`\\b${m[1]}\\.(\\w+)`, "g"))) {
      if (!has(m[2] as string, read[1] as string)) missing.push(`${alias}.${m[2]} has no ${read[1]}`);
    }
  }
  for (const m of code.matchAll(new RegExp(`var (\\w+) = ${alias}\\.(\\w+)\\.(\\w+)\\(`, "g"))) {
    if (!has(m[2] as string, m[3] as string)) missing.push(`${alias}.${m[2]} has no ${m[3]}`);
    const result = `${m[2]}Result`;
    for (const apply of code.matchAll(new RegExp(`\\b${m[1]}\\.Apply\\((\\w+) => \\1\\.(\\w+)`, "g"))) {
      if (!has(result, apply[2] as string)) missing.push(`${alias}.${result} has no ${apply[2]}`);
    }
  }
  return missing;
}
