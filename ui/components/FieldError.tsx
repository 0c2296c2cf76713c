/** What a form field says when it is wrong, beside it (linked to its field or fieldset with aria-describedby). */
export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p className="field-error" id={id}>
      <span aria-hidden="true">⚠ </span>
      {text}
    </p>
  ) : null;
}
