/**
 * The UI half of the lab kit ("One house for every lab"; docs/architecture.md, docs/design.md). A new
 * lab page is composed from these, not copied from another page:
 *
 *   <LabLayout label="Time experiment settings" {teaching}>
 *     {#snippet controls()}
 *       <h2>Experiment</h2>
 *       <fieldset class="group" disabled={active}> …fields (class="field", "row2", "field-note", "check")… </fieldset>
 *       <RunControls testid="tm" status={…} done={…} total={…} unit="orderings" eta={…} buttons={!teaching}
 *                    disabled={!canStart} reason={why} onrun={…} onpause={…} onresume={…} oncancel={…}>
 *         <p class="small">Backend: …</p>            (more progress lines, optional)
 *       </RunControls>
 *       …exports, import, notices…
 *     {/snippet}
 *     {#if teaching}<PlayBar testid="tm" …>readout</PlayBar>{/if}
 *     <div class="summary"><div class="stat"><span class="k">…</span><span class="v">…</span></div></div>
 *     …charts (each: a title in words, axes with units, a <Legend items={…} />)…
 *   </LabLayout>
 *
 * - The look (fields, .row2, .field-note, .check, .chips/.pick, "More settings" (.more/.more-toggle/.more-body),
 *   .run, .progress, .notice, .error, .hint, .empty, .small, .muted, .placeholder, .summary/.stat, .seg, table.num,
 *   figure.chart + .tip) is ../lab.css, global under `.lab` (LabLayout's frame): a page's <style> keeps only what
 *   is its own.
 * - Numbers: ../format.ts (pct, fixed, fmt, pValue, count, duration, progressText).
 * - Charts: ChartFigure.svelte (title, ⤓ menu, hint, legend, tooltip and the <svg> a lab's pure `draw` fills),
 *   ../chart-kit.ts (tooltip, heat-map colour legend), ../ChartExport.svelte (⤓ menu), ../palette.ts.
 * - The backend preference: ../BackendPicker.svelte.
 * - State and effects of a page go in a `.svelte.ts` module beside it (runes outside components; unit-tested
 *   without a browser), e.g. ui/ground-truth/lab-state.svelte.ts; the page only composes.
 * - Each component documents its props in the comment at its top.
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
