/**
 * The cron expressions a schedule trigger takes (docs/api-rules.md §27): five numeric UTC fields,
 * minute, hour, day of month, month and day of week, each `*`, a number, a range `a-b`, either
 * with a step `/n`, or a comma-separated list of these. Names (`MON`, `JAN`), six fields (seconds)
 * and words (`every day`) are refused by the service, so they are refused at preview.
 */

/** Each field's name and the values it admits, in order. */
const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

const FORM = "five numeric UTC fields, minute hour day-of-month month day-of-week, such as `0 3 * * *`";

/** What is wrong with `cron` as a schedule, as a sentence about the `cron` input; undefined when it is one. */
export function cronProblem(cron: string): string | undefined {
  const fields = cron.trim() === "" ? [] : cron.trim().split(/\s+/);
  if (fields.length !== FIELDS.length)
    return `cron ${JSON.stringify(cron)} has ${fields.length} field${fields.length === 1 ? "" : "s"}: a schedule is ${FORM}`;
  if (/\s/.test(cron.trim().replace(/ (?=\S)/g, "")))
    return `cron ${JSON.stringify(cron)} separates its fields with more than one space or a tab: write them with one space between, such as \`0 3 * * *\``;
  for (const [i, field] of fields.entries()) {
    const rule = FIELDS[i];
    if (rule === undefined) continue;
    const wrong = fieldProblem(field ?? "", rule.min, rule.max);
    if (wrong !== undefined)
      return `cron ${JSON.stringify(cron)}: its ${rule.name} field ${JSON.stringify(field)} ${wrong}; a schedule is ${FORM}`;
  }
  return undefined;
}

/** What is wrong with one field whose values run from `min` to `max`; undefined when it is right. */
function fieldProblem(field: string, min: number, max: number): string | undefined {
  for (const part of field.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (match === null)
      return `is not \`*\`, a number, a range a-b or a step /n (names and words are not taken)`;
    const [, , from, to, step] = match;
    for (const value of [from, to]) {
      if (value !== undefined && (Number(value) < min || Number(value) > max))
        return `holds ${value}, outside ${min}-${max}`;
    }
    if (from !== undefined && to !== undefined && Number(to) < Number(from))
      return `holds the range ${from}-${to}, whose end comes before its start`;
    if (step !== undefined && Number(step) < 1) return "holds a step of 0";
  }
  return undefined;
}
