import { Input } from 'antd';
import { useEffect, useState } from 'react';

export interface ListSearchProps {
  /** What the box searches, read by screen readers: 'Search patients'. */
  label: string;
  placeholder: string;
  /** The search the list shows now (from the URL). */
  value: string;
  /** Called as the user types (the list state debounces it) and on Enter. */
  onSearch: (search: string) => void;
}

/**
 * A list screen's search box. It shows what is typed at once and follows the URL when that changes
 * from elsewhere (Back, a link), without undoing a space the user has just typed.
 */
export function ListSearch({ label, placeholder, value, onSearch }: ListSearchProps) {
  const [text, setText] = useState(value);
  useEffect(() => {
    setText((typed) => (typed.trim() === value ? typed : value));
  }, [value]);
  return (
    <Input.Search
      aria-label={label}
      placeholder={placeholder}
      allowClear
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        onSearch(event.target.value.trim());
      }}
      onSearch={(typed) => onSearch(typed.trim())}
      style={{ flex: '1 1 220px', maxWidth: 420 }}
    />
  );
}
