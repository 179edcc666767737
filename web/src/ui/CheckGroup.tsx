// A labelled group of checkboxes choosing some of a list (networks, pages, organizations), with the API's error for
// the field under it.
import type { ReactNode } from 'react';

export interface CheckGroupProps {
  legend: ReactNode;
  options: { value: string; label: ReactNode }[];
  selected: string[];
  onChange: (selected: string[]) => void;
  name?: string;
  error?: string | undefined;
  className?: string;
  children?: ReactNode;
}

export function CheckGroup({ legend, options, selected, onChange, name, error, className, children }: CheckGroupProps) {
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      {options.map((o) => (
        <label key={o.value} className="check">
          <input
            type="checkbox"
            name={name}
            value={o.value}
            checked={selected.includes(o.value)}
            onChange={(e) =>
              onChange(e.target.checked ? [...selected, o.value] : selected.filter((v) => v !== o.value))
            }
          />
          {o.label}
        </label>
      ))}
      {children}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
