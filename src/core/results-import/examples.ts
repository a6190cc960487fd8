/**
 * One line of each accepted format: shown in the import dialog, the CLI's help and the README (keep them in step).
 */
export interface FormatExample {
  name: string;
  example: string;
}

export const FORMAT_EXAMPLES: readonly FormatExample[] = [
  { name: 'CSV (header + one run per line)', example: 'method,order,final_accuracy,aia,seed\newc,"3 1 | 0 2 | 5 4",71.2,80.4,0' },
  { name: 'JSON (array, or {"runs": [...]})', example: '[{"method": "der", "order": [[3, 1], [0, 2], [5, 4]], "final_accuracy": 0.712, "seed": 1993}]' },
  { name: 'JSON lines (one run per line)', example: '{"order": [3, 1, 0, 2, 5, 4], "acc": 0.712, "method": "memo"}' },
  { name: 'PyCIL / PILOT log', example: '… => [3, 1, 0, 2, 5, 4]   (the class order)   … => CNN top1 curve: [90.1, 80.35, 71.2]' },
];
