/**
 * The names a column (CSV) or key (JSON) of an imported run may have, compared after lower-casing and folding
 * spaces and dashes to "_"; the first alias found wins. Shared by parse-csv.ts and parse-json.ts, which add their
 * own `matrix` aliases (in their own order) and, for JSON, `curve`.
 */
export const RUN_FIELD_ALIASES = {
  method: ['method', 'strategy', 'model', 'model_name', 'learner'],
  order: ['tasks', 'order', 'class_order', 'ordering', 'classes'],
  final: ['final_accuracy', 'final_acc', 'final', 'acc', 'accuracy', 'last_accuracy', 'top1'],
  aia: ['aia', 'average_incremental_accuracy', 'avg_acc', 'avg_accuracy', 'average_accuracy'],
  seed: ['seed'],
} as const;
