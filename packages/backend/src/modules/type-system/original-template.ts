const JINJA_DELIMITER = /\{[{%#]/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const GROUP_OR_PLACEHOLDER = /\(([^()]*)\)|\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Whether `template` is in the original's Python-format style (`numeric({precision},{scale})`): it has
 * `{name}` placeholders and no Jinja delimiter.
 */
export function isOriginalTemplate(template: string): boolean {
  return !JINJA_DELIMITER.test(template) && new RegExp(PLACEHOLDER.source).test(template);
}

/**
 * Converts an original Python-format template to Jinja so optional parameters render cleanly: a
 * parenthesised group renders only when its first placeholder is defined, and each later
 * comma-separated placeholder only when it is defined —
 * `numeric({precision},{scale})` becomes
 * `numeric{% if precision is defined %}({{ precision }}{% if scale is defined %},{{ scale }}{% endif %}){% endif %}`.
 * A placeholder outside parentheses becomes `{{ name }}`. Other templates are returned unchanged.
 */
export function convertOriginalTemplate(template: string): string {
  if (!isOriginalTemplate(template)) {
    return template;
  }
  return template.replace(
    GROUP_OR_PLACEHOLDER,
    (match, group: string | undefined, name: string | undefined) => {
      if (name !== undefined) {
        return `{{ ${name} }}`;
      }
      return placeholdersIn(group ?? '').length === 0 ? match : convertGroup(group ?? '');
    },
  );
}

function convertGroup(inner: string): string {
  const parts = inner.split(',');
  let body = '';
  parts.forEach((part, index) => {
    const text = part.replace(PLACEHOLDER, '{{ $1 }}');
    if (index === 0) {
      body += text;
      return;
    }
    const names = placeholdersIn(part);
    body += names.length === 0 ? `,${text}` : `{% if ${definedTest(names)} %},${text}{% endif %}`;
  });
  const leading = placeholdersIn(parts[0] ?? '');
  return leading.length === 0 ? `(${body})` : `{% if ${definedTest(leading)} %}(${body}){% endif %}`;
}

function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

function definedTest(names: string[]): string {
  return names.map((name) => `${name} is defined`).join(' and ');
}
