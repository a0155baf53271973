/** plural writes a count with its noun: "1 knowledge gap", "2 knowledge gaps" (many: the plural when not noun + "s"). */
export function plural(n: number, noun: string, many = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : many}`;
}
