// A free loopback port: the OS picks one, the probe releases it, the caller binds it next.
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Makes the app listen on a loopback port the OS picks; its base URL (`http://127.0.0.1:<port>`). */
export async function listenOnLoopback(app: {
  listen(opts: { port: number; host: string }): Promise<string>;
}): Promise<string> {
  return app.listen({ port: 0, host: '127.0.0.1' });
}
