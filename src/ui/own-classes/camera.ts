/**
 * What the Your-classes lab says when the camera cannot record (pure: a DOMException's name and the page's facts in,
 * one message out). Every message offers the drop-images path; nothing recorded so far is lost (each sample is
 * stored the moment it is taken).
 */

export type CameraProblem = 'insecure' | 'denied' | 'none' | 'busy' | 'ended' | 'other';

const DROP = 'drop images of this class on the box below instead (everything recorded so far is kept).';

export function cameraProblemOf(errorName: string): CameraProblem {
  if (errorName === 'NotAllowedError' || errorName === 'SecurityError' || errorName === 'PermissionDeniedError') return 'denied';
  if (errorName === 'NotFoundError' || errorName === 'OverconstrainedError' || errorName === 'DevicesNotFoundError') return 'none';
  if (errorName === 'NotReadableError' || errorName === 'AbortError' || errorName === 'TrackStartError') return 'busy';
  return 'other';
}

export function cameraMessage(problem: CameraProblem, detail: { origin?: string; kept?: number; error?: string } = {}): string {
  switch (problem) {
    case 'insecure':
      return `The camera works only on a secure page (https:// or localhost), and this page is ${detail.origin ?? 'not one'}: open the app over https, or ${DROP}`;
    case 'denied':
      return `The camera was not allowed. Allow it with the camera icon in the address bar and press Record again, or ${DROP}`;
    case 'none':
      return `No camera was found. Plug one in and press Record again, or ${DROP}`;
    case 'busy':
      return `The camera is busy: another app or tab is using it. Close that and press Record again, or ${DROP}`;
    case 'ended':
      return `The camera went away mid-recording (unplugged, or taken by another app). The ${detail.kept ?? 0} samples recorded are kept: press Record to go on, or ${DROP}`;
    case 'other':
      return `The camera could not start (${detail.error ?? 'unknown error'}). Press Record to try again, or ${DROP}`;
  }
}

/** The problem before asking for the camera at all: a page that is not a secure context has no mediaDevices. */
export function cameraAvailability(secure: boolean, hasGetUserMedia: boolean): CameraProblem | null {
  if (!secure) return 'insecure';
  if (!hasGetUserMedia) return 'none';
  return null;
}
