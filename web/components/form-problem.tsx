// What went wrong, said where the person acted: an alert paragraph, or nothing when all is well.

/** The problem text in a `role="alert"` paragraph (read out when it appears); nothing when there is none. */
export function Problem({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <p role="alert" className="problem">
      {text}
    </p>
  );
}
