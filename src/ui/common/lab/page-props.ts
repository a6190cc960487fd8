/** The one props contract of every tab's page (src/ui/labs.ts): its tab is shown or not. */
export interface LabPageProps {
  /** the page's tab is shown */
  active: boolean;
}
