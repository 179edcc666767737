// What the server says about itself that the app needs everywhere: whether it runs in sandbox mode.
import { useQuery } from '@tanstack/react-query';

export interface ServerInfo {
  sandbox: boolean;
}

export function useServerInfo() {
  return useQuery({
    queryKey: ['server-info'],
    queryFn: async (): Promise<ServerInfo> => {
      const res = await fetch('/unified/platforms', {
        credentials: 'include',
        headers: { accept: 'application/json' },
      });
      if (!res.ok) return { sandbox: false };
      const body = (await res.json()) as { sandbox?: unknown };
      return { sandbox: body.sandbox === true };
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
}
