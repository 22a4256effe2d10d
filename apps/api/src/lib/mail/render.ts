import type { Config } from '../../config';
import type { Db } from '../../db/knex';
import type { AttachmentRef, DeferredMail, MailAttachment, MailMessage } from './message';

/**
 * Mail rendered at send time. A request that must mail a one-time secret (a password
 * reset link) queues a `DeferredMail`: the template name and the non-secret facts it needs. The
 * worker calls the template's renderer, which does the work (looks the account up, creates the token,
 * stores only its hash) and returns the message, or null when nothing is to be sent. So the job row
 * never holds a secret, and the request does the same work whether or not the account exists.
 */

/** What a renderer may use: the database (its own transaction) and the config. */
export interface RenderDeps {
  db: Db;
  config: Config;
}
/** Renders one deferred mail; null = nothing to send (e.g. no active account with that email). */
export type MailRenderer = (deps: RenderDeps, data: Record<string, unknown>) => Promise<MailMessage | null>;

/** The registry: template name → renderer (filled as the modules that own the templates load). */
const renderers = new Map<string, MailRenderer>();

/** Registers the renderer of a deferred template (modules call it when they load). */
export function registerMailRenderer(template: string, renderer: MailRenderer): void {
  renderers.set(template, renderer);
}

/** Is this queued message rendered at send time? */
export const isDeferred = (m: MailMessage | DeferredMail): m is DeferredMail => 'render' in m && typeof m.render === 'string';

/**
 * The message to deliver: a plain message as is; a deferred one rendered now. Throws for an unknown
 * template (the job is retried, so a deploy that registers it later still sends it).
 */
export async function renderMail(deps: RenderDeps, message: MailMessage | DeferredMail): Promise<MailMessage | null> {
  if (!isDeferred(message)) return message;
  const renderer = renderers.get(message.render);
  if (!renderer) throw new Error(`no mail renderer for "${message.render}"`);
  return renderer(deps, message.data);
}

/** Renders one attachment kind from its reference (e.g. the invoice PDF of an order). */
export type AttachmentRenderer = (deps: RenderDeps, ref: AttachmentRef) => Promise<MailAttachment>;

const attachmentRenderers = new Map<string, AttachmentRenderer>();

/** Registers the renderer of an attachment kind (the module owning the document calls it when it loads). */
export function registerMailAttachment(kind: string, renderer: AttachmentRenderer): void {
  attachmentRenderers.set(kind, renderer);
}

/**
 * The attachments a message names, rendered now (the mail job, at send time). Throws for an unknown kind or a
 * renderer that fails: the job is retried.
 */
export async function renderAttachments(deps: RenderDeps, message: MailMessage): Promise<MailAttachment[]> {
  const out: MailAttachment[] = [];
  for (const ref of message.attach ?? []) {
    const renderer = attachmentRenderers.get(ref.kind);
    if (!renderer) throw new Error(`no mail attachment renderer for "${ref.kind}"`);
    out.push(await renderer(deps, ref));
  }
  return out;
}
