/**
 * The UI half of the lab kit (docs/architecture.md, docs/design.md): a lab registers its client half
 * (./lab-client.ts) and the kit's LabPage mounts it, wiring what every lab shares; a lab's own components are
 * composed from these, not copied from another lab. The page's frame is LabLayout (a `controls` snippet with the
 * settings and RunControls, the canvas beside it; PlayBar in teaching mode); its look (fields, chips, "More
 * settings", notices, .summary/.stat, table.num, figure.chart) is ../lab.css under `.lab`, so a component's <style>
 * keeps only what is its own. Numbers: ../format.ts; charts: ChartFigure (title, ⤓ menu, hint, legend, tooltip, the
 * <svg> a pure `draw` fills) with ../chart-kit.ts and ../palette.ts. A lab's state and effects go in a `.svelte.ts`
 * module beside it (unit-tested without a browser), e.g. ui/time/lab-state.svelte.ts. Each component documents its
 * props (at its top or on its Props type).
 */
export { default as LabLayout } from './LabLayout.svelte';
export { default as RunControls } from './RunControls.svelte';
export { default as PlayBar } from './PlayBar.svelte';
export { default as Legend } from './Legend.svelte';
export { default as ChartFigure } from './ChartFigure.svelte';
export { default as PaperCite } from './PaperCite.svelte';
export { default as Verdict } from './Verdict.svelte';
export type { LegendItem, LegendSwatch } from './Legend.svelte';
export type { RunStatus } from './RunControls.svelte';
export { lessonClosed, lessonIsOpen, lessonObservation, reportLessonObservation } from './lesson-check.svelte';
export { default as LessonFold } from './LessonFold.svelte';
export { default as SeedTable } from './SeedTable.svelte';
export { default as SeedsField } from './SeedsField.svelte';
export { runButton } from './run-button';
