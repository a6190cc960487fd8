/**
 * The Your-classes lab's encoder and its section (docs/science.md §10): which image encoder turns the recordings into
 * features, whether its weights are here, kept by the browser or a download the visitor must allow (its size asked
 * first), the browser offline or the hub out of reach said in plain words, and the encoders that run here offered
 * instead. ./own-samples-lab.svelte.ts builds the lab's classes and samples on it, ./own-classes-lab.svelte.ts the
 * history of R, the orderings and the joint head on those.
 */
import { ownClassesOf, type OwnClassesConfig } from '../../core/labs/own-classes/section';
import type { OwnClassesRunner } from '../../services/own-classes-runner';
import { encoderDownloadSize } from '../../services/feature-source';
import { browserOffline, encoderState, runnableEncoders, type EncoderState, type RunnableEncoder } from '../../services/own-encoders';
import { settingsOfWeights, weightSourceOfSettings, type EncoderSettingsValue, type EncoderSize } from '../common/encoder-settings';
import { RunnerLab } from '../common/lab/runner-lab';

/** The encoder services the lab uses (the tests pass their own). */
export interface EncoderProbe {
  state(e: OwnClassesConfig['encoder']): Promise<EncoderState>;
  runnable(modelsBase: string): Promise<RunnableEncoder[]>;
  offline(): boolean;
}

export const BROWSER_PROBE: EncoderProbe = { state: (e) => encoderState(e), runnable: (b) => runnableEncoders(b), offline: browserOffline };

export abstract class OwnEncoderLab extends RunnerLab<OwnClassesRunner> {
  cfg: OwnClassesConfig = $state(ownClassesOf({}));
  encoderForm: EncoderSettingsValue = $state({ model: '', revision: 'main', precision: 'q8', weights: 'hub', folder: '', mirror: '', device: 'wasm' });
  encoderSize: EncoderSize = $state(null);
  encoderApproved = $state(false);
  /** where the encoder's weights would come from now (null: not asked yet) */
  encoderWhere: EncoderState | null = $state(null);
  /** the browser says it is offline */
  offline = $state(false);
  /** the hub did not answer (a size check or a load failed on the network) */
  unreachable = $state(false);
  /** encoders that run here without a download (offered when the chosen one cannot come) */
  runnable: RunnableEncoder[] = $state([]);

  constructor(
    runner: OwnClassesRunner,
    /** the section the lab opens on (absent: the fill-in) */
    initial: OwnClassesConfig | undefined,
    private readonly save: (c: OwnClassesConfig) => void,
    /** where a blank self-hosted folder points (the app's models/ folder) */
    protected readonly defaultFolder: string,
    private readonly probe: EncoderProbe,
  ) {
    super(runner);
    this.cfg = ownClassesOf({ ownClasses: initial });
    this.formFromConfig();
    this.encoderApproved = this.cfg.encoder.weights.kind === 'self-hosted';
    this.syncEncoderAccess();
  }

  /** The encoder can now be used (allowed, or switched to one that runs here): what was recorded trains. */
  protected abstract encoderReady(): Promise<void>;
  /** Another encoder: results computed with the old one's features no longer stand. */
  protected abstract encoderSwitched(): void;

  /** Before recording: the encoder cannot come now, in plain words (null when it is here or may be downloaded). */
  get encoderNotice(): string | null {
    const w = this.encoderWhere;
    if (w === null || w === 'here' || w === 'cached') return null;
    const e = this.cfg.encoder;
    if (w === 'missing') return `This site's folder ${(e.weights as { path: string }).path} has no encoder “${e.model}”: choose another below.`;
    if (this.encoderApproved && !this.offline && !this.unreachable) return null;
    const cannot = `so ${e.model} cannot be downloaded and your recordings could not be turned into features. Use an encoder that runs here (below) before you record; what you recorded is kept either way.`;
    if (this.offline) return `This browser is offline: the model hub cannot be reached, ${cannot}`;
    if (this.unreachable) return `The model hub cannot be reached from this browser (offline, or blocked on this network), ${cannot}`;
    return `${e.model} is not in this browser yet: under Encoder, check its download size and download it (once), or use an encoder that runs here (below). You can record first: the model updates once the encoder is here.`;
  }

  protected commit(): void {
    this.save($state.snapshot(this.cfg) as OwnClassesConfig);
  }

  /**
   * A plain setting the panel shows (a row of src/core/labs/own-classes/settings.ts: a number, a choice, a switch),
   * kept and saved; one whose change starts work has its own method (the strategy's teaches again).
   */
  set(change: Partial<OwnClassesConfig>): void {
    Object.assign(this.cfg, change);
    this.commit();
  }

  protected syncEncoderAccess(): void {
    this.runner.encoderAccess({
      allowed: this.encoderApproved ? ($state.snapshot(this.cfg.encoder) as OwnClassesConfig['encoder']) : null,
      device: this.encoderForm.device,
    });
  }

  /** Where the encoder's weights would come from now, and what runs here when it cannot come (no network used). */
  async checkEncoder(): Promise<void> {
    const e = $state.snapshot(this.cfg.encoder) as OwnClassesConfig['encoder'];
    this.offline = this.offline || this.probe.offline();
    const where = await this.probe.state(e);
    if (JSON.stringify(e) !== JSON.stringify(this.cfg.encoder)) return;
    this.encoderWhere = where;
    // every file is in the browser's cache: it loads from there (nothing to download, so nothing to allow)
    if (where === 'cached' && !this.encoderApproved) {
      this.encoderApproved = true;
      this.syncEncoderAccess();
    }
    if (where !== 'here' && where !== 'cached')
      this.runnable = (await this.probe.runnable(this.defaultFolder)).filter((r) => JSON.stringify(r.encoder) !== JSON.stringify(e));
  }

  /** The browser went online or offline (online again: the hub may answer again too). */
  setOffline(offline: boolean): void {
    this.offline = offline;
    if (!offline) this.unreachable = false;
    void this.checkEncoder();
  }

  /** Use an encoder that runs here (the shipped folder, or one the browser keeps). */
  async useEncoder(e: OwnClassesConfig['encoder']): Promise<void> {
    this.cfg.encoder = $state.snapshot(e) as OwnClassesConfig['encoder'];
    this.formFromConfig();
    this.afterEncoderChange();
    await this.checkEncoder();
    await this.encoderReady();
  }

  /** A setting of the encoder changed: the section follows (the link), and a size asked or a download allowed no longer holds. */
  encoderChanged(): void {
    const f = this.encoderForm;
    const weights = weightSourceOfSettings(f, this.defaultFolder);
    this.cfg.encoder = {
      source: 'encoder',
      model: f.model.trim() || this.cfg.encoder.model,
      precision: f.precision as OwnClassesConfig['encoder']['precision'],
      weights,
    };
    this.afterEncoderChange();
    void this.checkEncoder();
  }

  private afterEncoderChange(): void {
    this.commit();
    this.encoderSize = null;
    // encoderWhere stays until checkEncoder says where the new one is (no line comes and goes under the pointer)
    this.encoderApproved = this.cfg.encoder.weights.kind === 'self-hosted';
    this.encoderSwitched();
    this.syncEncoderAccess();
  }

  /** The encoder's download size, asked with HEAD requests (nothing downloads); a hub that does not answer is said. */
  async askEncoderSize(): Promise<void> {
    this.encoderSize = null;
    const e = this.cfg.encoder;
    try {
      const got = await encoderDownloadSize({
        source: 'encoder',
        model: e.model,
        revision: 'main',
        precision: e.precision,
        weights: structuredClone($state.snapshot(e.weights)),
        device: this.encoderForm.device,
        allowRemote: true,
      } as Parameters<typeof encoderDownloadSize>[0]);
      this.encoderSize = { bytes: got.bytes };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/offline|unreachable|Failed to fetch|NetworkError/i.test(message)) {
        this.unreachable = true;
        void this.checkEncoder();
      }
      this.encoderSize = { error: this.plainEncoderError(message) };
    }
  }

  /** The download button: the encoder's weights may now come from the hub or the mirror; classes recorded already train. */
  async approveEncoder(): Promise<void> {
    this.encoderApproved = true;
    this.syncEncoderAccess();
    await this.encoderReady();
  }

  /** "allowRemote is false" and friends, in words a teacher reads. */
  private plainEncoderError(message: string): string {
    const e = this.cfg.encoder;
    if (/allowRemote is false|remote downloads are switched off/.test(message))
      return `${e.model} is not in this browser yet, and it is downloaded only when you ask: under Encoder, press “Check the download size”, then the download button${this.offline || this.unreachable ? ' (the model hub cannot be reached now, so use an encoder that runs here instead)' : ''}. Your samples are kept.`;
    if (/seem to be offline|unreachable|Failed to fetch|NetworkError/i.test(message))
      return `The model hub cannot be reached from this browser (offline, or blocked here), so ${e.model} cannot be downloaded now. Use an encoder that runs here (under Encoder); your samples are kept.`;
    return message;
  }

  protected encoderError(e: unknown): string {
    const message = e instanceof Error ? e.message : String(e);
    const plain = this.plainEncoderError(message);
    if (plain !== message) {
      if (/hub cannot be reached from this browser/.test(plain)) this.unreachable = true;
      void this.checkEncoder();
    }
    return plain;
  }

  protected formFromConfig(): void {
    const e = this.cfg.encoder;
    this.encoderForm = { ...this.encoderForm, model: e.model, precision: e.precision, ...settingsOfWeights(e.weights, this.defaultFolder) };
  }
}
