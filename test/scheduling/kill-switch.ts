// Kills a process at a chosen call it makes to the sandbox: the sandbox runs in the test process, so a
// hook on the harness's app sees every call. At the k-th watched call the process is killed either
// BEFORE the simulator acts (the call never reached the network) or AFTER it acted but before the answer
// is sent (the network has done it; the caller never learns). Install with createHarness({ configureApp }).
import type { FastifyInstance, FastifyRequest } from 'fastify';

export type Phase = 'before' | 'after';

export class KillSwitch {
  /** Calls counted since the last arm() (of the network it named, if it named one). */
  seen = 0;
  /** Watched calls since the last arm(), by network (`/sandbox/<network>/…`). */
  seenBy: Record<string, number> = {};
  readonly kills: { round: number; k: number; phase: Phase; call: string }[] = [];
  #armed = false;
  #k = 0;
  #phase: Phase = 'before';
  #round = 0;
  #victim: FastifyRequest | undefined;
  #only: string | undefined;
  readonly #watched: RegExp;
  readonly #kill: () => Promise<void>;

  /** `kill` must not return before the process is dead (and may start its replacement). */
  constructor(watched: RegExp, kill: () => Promise<void>) {
    this.#watched = watched;
    this.#kill = kill;
  }

  /** Kill at the k-th watched call from now (Infinity: only count), or the k-th to network `only`. */
  arm(round: number, k: number, phase: Phase, only?: string): void {
    this.seen = 0;
    this.seenBy = {};
    this.#only = only;
    this.#round = round;
    this.#k = k;
    this.#phase = phase;
    this.#victim = undefined;
    this.#armed = true;
  }

  disarm(): void {
    this.#armed = false;
    this.#victim = undefined;
  }

  install = (app: FastifyInstance): void => {
    app.addHook('onRequest', async (req, reply) => {
      if (!this.#armed || !this.#watched.test(req.url)) return;
      const network = req.url.split('/')[2] ?? '';
      this.seenBy[network] = (this.seenBy[network] ?? 0) + 1;
      if (this.#only && network !== this.#only) return;
      this.seen += 1;
      if (this.seen !== this.#k) return;
      if (this.#phase === 'before') {
        await this.#fire(req);
        return reply.code(503).send({ error: 'the caller was killed' });
      }
      this.#victim = req;
    });
    app.addHook('onSend', async (req, _reply, payload) => {
      if (this.#victim !== req) return payload;
      await this.#fire(req);
      return payload;
    });
  };

  async #fire(req: FastifyRequest): Promise<void> {
    this.#armed = false;
    this.#victim = undefined;
    this.kills.push({
      round: this.#round,
      k: this.#k,
      phase: this.#phase,
      call: `${req.method} ${req.url.split('?')[0]}`,
    });
    await this.#kill();
  }
}
