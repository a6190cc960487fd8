/**
 * The Your-classes lab as the lab kit holds it (./index.ts): the lab (./own-classes-lab.svelte.ts) once this
 * browser's samples store is open (null until then: the canvas says so), what the panel and the canvas share (the
 * class recording now, what the camera, a drop, Add or an import said), the section the lab last committed (what the
 * kit saves into the experiment: every change is the visitor's own act, saved when it is made), and the browser going
 * online or offline. The lab has no Run row: recording a class trains it, and its runs' progress, Pause, Resume and
 * Cancel are on its canvas (./OwnClassesResults.svelte).
 */
import type { OwnClassesConfig } from '../../core/labs/own-classes/section';
import { labWorkers } from '../../services/lab-kit';
import { createOwnClassesRunner, type OwnClassesRunner } from '../../services/own-classes-runner';
import { openOwnSampleStore, type OwnSampleStore } from '../../services/own-classes-store';
import { shareLink } from '../../services/share-link.svelte';
import { downloadBlob } from '../common/chart-export';
import type { LabState } from '../common/lab/lab-client';
import { OwnClassesLab } from './own-classes-lab.svelte';

/** The lab's runner on this browser's samples store (the store opens first: the runner keeps its rows there). */
export interface OwnClassesParts {
  store: OwnSampleStore;
  runner: OwnClassesRunner;
}

export async function openOwnClasses(): Promise<OwnClassesParts> {
  const store = await openOwnSampleStore();
  const link = shareLink();
  const runner = createOwnClassesRunner({
    lease: labWorkers('own-classes').lease,
    store,
    backend: () => link.config.backend.train,
    wasmPaths: `${import.meta.env.BASE_URL}ort/`,
  });
  return { store, runner };
}

export class OwnClassesState implements LabState {
  lab: OwnClassesLab | null = $state(null);
  /** the section as the lab last committed it (null until the visitor changes something: nothing to save) */
  committed: OwnClassesConfig | null = $state.raw(null);
  /** the class recording now (the other controls wait on it) */
  recording: string | null = $state(null);
  /** what the camera or a drop said */
  cameraNote: string | null = $state(null);
  /** why Add refused the name */
  addProblem: string | null = $state(null);
  /** what the last import did */
  importNote: string | null = $state(null);
  private disposed = false;
  private readonly online = () => this.lab?.setOffline(false);
  private readonly offline = () => this.lab?.setOffline(true);

  constructor(
    private readonly parts: Promise<OwnClassesParts>,
    private readonly settings: OwnClassesConfig,
  ) {}

  /** The store opened, the lab made on it and loaded (its classes from this browser), online / offline followed. */
  attach(): void {
    window.addEventListener('online', this.online);
    window.addEventListener('offline', this.offline);
    void this.open();
  }

  private async open(): Promise<void> {
    const { store, runner } = await this.parts;
    if (this.disposed) {
      runner.cancel();
      return;
    }
    this.lab = new OwnClassesLab(
      store,
      runner,
      this.settings,
      (c) => (this.committed = c),
      () => shareLink().config.protocols.rsSeeds,
      `${import.meta.env.BASE_URL}models/`,
    );
    await this.lab.load();
  }

  // Pause / Resume / Cancel go to the runner once there is one
  pause = (): void => this.lab?.pause();
  resume = (): void => this.lab?.resume();
  cancel = (): void => this.lab?.cancel();

  add(): void {
    if (this.lab) this.addProblem = this.lab.addClass();
  }

  async exportZip(): Promise<void> {
    if (!this.lab) return;
    const bytes = await this.lab.exportZip();
    downloadBlob(new Blob([bytes as BlobPart], { type: 'application/zip' }), 'your-classes.zip');
  }

  async importZip(file: File): Promise<void> {
    if (!this.lab) return;
    this.importNote = await this.lab.importZip(new Uint8Array(await file.arrayBuffer()), file.name);
  }

  dispose(): void {
    this.disposed = true;
    window.removeEventListener('online', this.online);
    window.removeEventListener('offline', this.offline);
    this.lab?.dispose();
  }
}
