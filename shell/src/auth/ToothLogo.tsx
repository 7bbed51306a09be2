/** The product's mark, drawn inline so it needs no font or image request. */
export function ToothLogo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M7.5 2C4.5 2 3 4.4 3 7.2c0 2.2.8 3.6 1.4 5.3.6 1.8.7 3.9 1.2 6 .4 1.9 1 3.5 2.2 3.5 1.4 0 1.7-1.8 2-3.6.3-1.7.6-3.4 2.2-3.4s1.9 1.7 2.2 3.4c.3 1.8.6 3.6 2 3.6 1.2 0 1.8-1.6 2.2-3.5.5-2.1.6-4.2 1.2-6 .6-1.7 1.4-3.1 1.4-5.3C21 4.4 19.5 2 16.5 2c-1.9 0-2.9 1-4.5 1S9.4 2 7.5 2z"
      />
    </svg>
  );
}
