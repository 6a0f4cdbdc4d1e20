import { cloneElement, isValidElement, type ReactElement, type RefObject, useEffect, useId } from 'react';

/**
 * A labelled form field with its error under it (admin forms). The error is announced, and tied to the
 * control it is about: the control is aria-invalid and described by it (a form focuses the first such).
 */
export function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: React.ReactNode;
}) {
  const id = useId();
  const control =
    error && isValidElement(children)
      ? cloneElement(children as ReactElement<Record<string, unknown>>, {
          'aria-invalid': true,
          'aria-describedby': `${id}-error`,
        })
      : children;
  return (
    <div className="space-y-1 text-sm">
      {/* biome-ignore lint/a11y/noLabelWithoutControl: the control is passed in as children */}
      <label className="block space-y-1">
        <span className="font-medium">{label}</span>
        {control}
      </label>
      {error && (
        <span id={`${id}-error`} role="alert" className="block text-xs text-red-600 dark:text-red-400">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * After a refused save (`fields`: the server's reasons by field, set anew on each refusal): the focus goes to
 * the form's first field in error (Field marks it aria-invalid).
 */
export function useFocusFirstInvalid(
  form: RefObject<HTMLFormElement | null>,
  fields: Record<string, string>,
) {
  useEffect(() => {
    if (Object.keys(fields).length > 0)
      form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form, fields]);
}

export const inputClass =
  'w-full rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm aria-[invalid=true]:border-red-500 dark:border-zinc-700 dark:bg-zinc-900';
