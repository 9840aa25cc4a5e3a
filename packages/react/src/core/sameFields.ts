/** Whether two records of one shape hold the same values (`===`), field by field. */
export function sameFields<T extends object>(a: T, b: T): boolean {
  return (Object.keys(a) as (keyof T)[]).every((key) => a[key] === b[key]);
}
