// Light, dark or the system's choice (prefers-color-scheme, followed live); the choice is kept in storage and the
// colours in force on <html data-theme>, which base.css reads.
export type Theme = 'system' | 'light' | 'dark';
const KEY = 'herald.theme';
const DARK = '(prefers-color-scheme: dark)';

export function storedTheme(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

let choice: Theme = 'system';
let listening = false;

function paint(): void {
  const dark = choice === 'dark' || (choice === 'system' && window.matchMedia(DARK).matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function applyTheme(theme: Theme): void {
  choice = theme;
  paint();
  if (!listening) {
    listening = true;
    window.matchMedia(DARK).addEventListener('change', paint);
  }
  try {
    if (theme === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, theme);
  } catch {
    // No storage: the choice lasts for this page.
  }
}

export const nextTheme = (theme: Theme): Theme =>
  theme === 'system' ? 'light' : theme === 'light' ? 'dark' : 'system';
