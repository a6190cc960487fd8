/**
 * The name of the button that starts a lab's training, as its page shows it: Run ▶ on the Run row, or teaching mode's
 * Play (the Run row's buttons give way to the Play bar there, ./LabKitPage.svelte). Notices and placeholders that say
 * what to press name it through this, so a lesson never points at a button its page does not show.
 */
export function runButton(teaching: boolean): string {
  return teaching ? 'Play' : 'Run ▶';
}
