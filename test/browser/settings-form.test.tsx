import { expect } from 'chai';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { act } from 'preact/test-utils';
import { DEFAULT_SETTINGS, validateSettings } from '../../src/core/settings.ts';
import { SettingsForm } from '../../src/settings/settings-form.tsx';
import {
  BYTES_PER_MIB,
  checkForm,
  FIELDS,
  fieldErrors,
  fromSettings,
  labelOf,
  toSettings,
  type FieldErrors,
  type FormValues,
} from '../../src/settings/settings-values.ts';

/** The form as a page holds it: values in state, every change recorded. */
function Harness({ initial, errors, changes }: { initial: FormValues; errors: FieldErrors; changes: FormValues[] }) {
  const [value, setValue] = useState(initial);
  return (
    <SettingsForm
      value={value}
      errors={errors}
      onChange={(next) => {
        changes.push(next);
        setValue(next);
      }}
    />
  );
}

interface Mounted {
  container: HTMLElement;
  byTestId: <E extends HTMLElement = HTMLElement>(testId: string) => E;
  changes: FormValues[];
}

const containers: HTMLElement[] = [];

async function mountForm(
  options: { initial?: FormValues; errors?: FieldErrors; width?: number } = {},
): Promise<Mounted> {
  const container = document.createElement('div');
  if (options.width !== undefined) container.style.width = `${options.width}px`;
  document.body.append(container);
  containers.push(container);
  const changes: FormValues[] = [];
  await act(() => {
    render(
      <Harness initial={options.initial ?? fromSettings({})} errors={options.errors ?? {}} changes={changes} />,
      container,
    );
  });
  return {
    container,
    changes,
    byTestId: <E extends HTMLElement = HTMLElement>(testId: string): E => {
      const element = container.querySelector<E>(`[data-testid="${testId}"]`);
      if (element === null) throw new Error(`no element with data-testid="${testId}"`);
      return element;
    },
  };
}

/** Sets a text field's value the way typing reaches the form (an `input` event). */
async function typeInto(input: HTMLInputElement | HTMLTextAreaElement, text: string): Promise<void> {
  await act(() => {
    input.value = text;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** The text of the elements an input's `aria-describedby` names, joined. */
function descriptionOf(input: HTMLElement): string {
  const ids = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((id) => id !== '');
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

async function loadStyles(): Promise<void> {
  for (const path of ['../../src/ui/theme.css', '../../src/settings/settings-form.css']) {
    const href = new URL(path, import.meta.url).href;
    if (document.querySelector(`link[href="${href}"]`) !== null) continue;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    const loaded = new Promise<void>((resolve, reject) => {
      link.addEventListener('load', () => resolve());
      link.addEventListener('error', () => reject(new Error(`could not load ${href}`)));
    });
    document.head.append(link);
    await loaded;
  }
}

describe('settings form', () => {
  afterEach(async () => {
    for (const container of containers.splice(0)) {
      await act(() => {
        render(null, container);
      });
      container.remove();
    }
  });

  it('renders every crawl option but the start URL with its built-in default', async () => {
    const form = await mountForm();
    const shown = Object.fromEntries(
      FIELDS.map((field) => {
        const input = form.byTestId<HTMLInputElement>(field.testId);
        return [field.testId, input.type === 'checkbox' ? input.checked : input.value];
      }),
    );
    expect(shown).to.deep.equal({
      'max-pages': '500',
      'max-depth': '20',
      'max-body-size': '10',
      delay: '1',
      jitter: '0',
      'hosts-at-once': '8',
      'requests-per-host': '1',
      'product-token': 'tabcrawl',
      'path-prefix': '',
      'exclude-patterns': '',
      'extra-origins': '',
      'include-subdomains': false,
      'follow-nofollow': false,
      timeout: '30',
      retries: '2',
      'head-before-get': false,
      'archive-resources': true,
      'download-files': true,
      'max-file-size': '50',
      'max-resources': '10000',
      'check-external': true,
      'max-external': '10000',
      'max-external-per-host': '100',
      'with-cookies': false,
      'allow-private-addresses': false,
      render: 'auto',
      'render-timeout': '15',
      searches: '',
      extractions: '',
    });
    expect(FIELDS.map((field) => field.setting)).to.have.members(Object.keys(DEFAULT_SETTINGS));
  });

  it('labels every field with its unit so it can be reached by its name', async () => {
    const form = await mountForm();
    const labels = [...form.container.querySelectorAll('label')].map((label) => [
      label.textContent,
      label.control?.dataset['testid'],
    ]);
    expect(labels).to.deep.equal(FIELDS.map((field) => [labelOf(field), field.testId]));
    const texts = labels.map(([text]) => text);
    for (const text of [
      'Delay (s)',
      'Timeout (s)',
      'Jitter (s)',
      'Max body size (MiB)',
      'Max pages',
      'Exclude patterns',
    ])
      expect(texts).to.include(text);
  });

  it('shows each default as placeholder and in the help the field is described by', async () => {
    const form = await mountForm();
    const maxPages = form.byTestId<HTMLInputElement>('max-pages');
    expect(maxPages.placeholder).to.equal('500');
    expect(descriptionOf(maxPages)).to.include('Default: 500.').and.include('1 to 1000000');
    expect(form.byTestId<HTMLInputElement>('delay').placeholder).to.equal('1');
    expect(descriptionOf(form.byTestId('delay'))).to.include('0 to 3600');
    // In the field's own unit, MiB, as the label says: no KiB in a MiB field.
    expect(descriptionOf(form.byTestId('max-body-size'))).to.include('0.001 to 1024. Default: 10.');
    expect(descriptionOf(form.byTestId('head-before-get'))).to.include('Default: off.');
  });

  it('leaves every field to the keyboard: native controls, none taken out of the tab order', async () => {
    const form = await mountForm();
    for (const field of FIELDS) {
      const input = form.byTestId(field.testId);
      expect(['INPUT', 'TEXTAREA', 'SELECT']).to.include(input.tagName);
      expect(input.tabIndex, field.testId).to.equal(0);
      input.focus();
      expect(document.activeElement).to.equal(input);
    }
  });

  it("shows the validator's message next to the field it is about", async () => {
    const values = { ...fromSettings({}), delaySeconds: '-1' };
    const result = checkForm(values);
    expect(result.ok).to.equal(false);
    const form = await mountForm({ initial: values, errors: result.ok ? {} : result.errors });

    const delay = form.byTestId<HTMLInputElement>('delay');
    const expected = validateSettings({ startUrl: 'https://a.test/', delayMs: -1000 });
    const message = expected.ok ? '' : (expected.errors[0]?.message ?? '');
    expect(message).to.equal('Delay must be from 0 s to 3600 s, not -1 s');
    expect(form.byTestId('delay-error').textContent).to.equal(message);
    expect(delay.getAttribute('aria-invalid')).to.equal('true');
    expect(descriptionOf(delay)).to.include(message);
    expect(delay.parentElement?.contains(form.byTestId('delay-error'))).to.equal(true);
    expect(form.container.querySelectorAll('[aria-invalid="true"]')).to.have.lengthOf(1);
  });

  it('reports every edit as a whole new value', async () => {
    const form = await mountForm();
    await typeInto(form.byTestId<HTMLInputElement>('delay'), '2.5');
    await act(() => {
      form.byTestId<HTMLInputElement>('include-subdomains').click();
    });
    await typeInto(form.byTestId<HTMLTextAreaElement>('exclude-patterns'), '*?a=*\n/private/*');

    const last = form.changes.at(-1);
    expect(last).to.deep.equal({
      ...fromSettings({}),
      delaySeconds: '2.5',
      includeSubdomains: true,
      excludePatterns: '*?a=*\n/private/*',
    });
    expect(form.byTestId<HTMLInputElement>('include-subdomains').checked).to.equal(true);
  });

  it('edits the extra sites one per line, with the form of an origin as placeholder', async () => {
    const form = await mountForm();
    const sites = form.byTestId<HTMLTextAreaElement>('extra-origins');
    expect(sites.tagName).to.equal('TEXTAREA');
    expect(sites.labels?.[0]?.textContent).to.equal('Also crawl these sites');
    expect(sites.placeholder).to.include('https://docs.example.com');
    expect(descriptionOf(sites)).to.include('At most 50').and.include('Default: none.');
    await typeInto(sites, 'http://127.0.0.1:8081/\n\n HTTPS://Docs.Example.com ');

    const last = form.changes.at(-1) ?? fromSettings({});
    expect(last.extraOrigins).to.equal('http://127.0.0.1:8081/\n\n HTTPS://Docs.Example.com ');
    const checked = checkForm(last);
    expect(checked.ok && checked.settings.extraOrigins).to.deep.equal([
      'http://127.0.0.1:8081',
      'https://docs.example.com',
    ]);
  });

  it("shows the validator's message for a bad extra site next to that field", async () => {
    const values = { ...fromSettings({}), extraOrigins: 'https://ok.test\nhttps://b.test/docs/' };
    const result = checkForm(values);
    expect(result.ok).to.equal(false);
    const form = await mountForm({ initial: values, errors: result.ok ? {} : result.errors });
    const sites = form.byTestId<HTMLTextAreaElement>('extra-origins');
    const message =
      'Also crawl these sites: "https://b.test/docs/" has a path, query or fragment; give the site only, e.g. https://b.test';
    expect(form.byTestId('extra-origins-error').textContent).to.equal(message);
    expect(sites.getAttribute('aria-invalid')).to.equal('true');
    expect(descriptionOf(sites)).to.include(message);
    expect(form.container.querySelectorAll('[aria-invalid="true"]')).to.have.lengthOf(1);
  });

  it('round-trips seconds and MiB typed in the form to ms and bytes and back', async () => {
    const form = await mountForm();
    await typeInto(form.byTestId<HTMLInputElement>('delay'), '2.5');
    await typeInto(form.byTestId<HTMLInputElement>('timeout'), '45');
    await typeInto(form.byTestId<HTMLInputElement>('jitter'), '0.25');
    await typeInto(form.byTestId<HTMLInputElement>('max-body-size'), '0.5');
    const last = form.changes.at(-1);
    expect(last).to.not.equal(undefined);
    const settings = toSettings(last ?? fromSettings({}));
    expect([settings.delayMs, settings.timeoutMs, settings.jitterMs, settings.maxBodyBytes]).to.deep.equal([
      2500,
      45_000,
      250,
      BYTES_PER_MIB / 2,
    ]);

    const again = await mountForm({ initial: fromSettings(settings) });
    expect(
      ['delay', 'timeout', 'jitter', 'max-body-size'].map((testId) => again.byTestId<HTMLInputElement>(testId).value),
    ).to.deep.equal(['2.5', '45', '0.25', '0.5']);
  });

  it('has "Requests at once per host" next to "Hosts at once", saying more than 1 applies only at delay 0 without a Crawl-delay', async () => {
    await loadStyles();
    const form = await mountForm({ width: 356 });
    const perHost = form.byTestId<HTMLInputElement>('requests-per-host');
    const hosts = form.byTestId<HTMLInputElement>('hosts-at-once');
    expect(perHost.labels?.[0]?.textContent).to.equal('Requests at once per host');
    expect(perHost.placeholder).to.equal('1');
    expect(perHost.inputMode).to.equal('numeric');
    const help = descriptionOf(perHost);
    expect(help)
      .to.include('More than 1 only at delay 0')
      .and.include('no Crawl-delay')
      .and.include('1 to 16.')
      .and.include('Default: 1.');
    expect(descriptionOf(hosts)).to.not.include('one request each');
    // Same fieldset, the field right after it: side by side in the popup's two columns.
    const order = FIELDS.map((field) => field.testId);
    expect(order.indexOf('requests-per-host')).to.equal(order.indexOf('hosts-at-once') + 1);
    expect(perHost.closest('fieldset')).to.equal(hosts.closest('fieldset'));
    expect(perHost.getBoundingClientRect().top).to.equal(hosts.getBoundingClientRect().top);
    expect(perHost.getBoundingClientRect().left).to.be.above(hosts.getBoundingClientRect().right);

    await typeInto(perHost, '8');
    const checked = checkForm(form.changes.at(-1) ?? fromSettings({}));
    expect(checked.ok && checked.settings.requestsPerHost).to.equal(8);
  });

  it('shows a bad "Requests at once per host" message next to that field', async () => {
    for (const [text, message] of [
      ['0', 'Requests at once per host must be from 1 to 16, not 0'],
      ['17', 'Requests at once per host must be from 1 to 16, not 17'],
      ['x', 'Requests at once per host must be a number'],
    ] as const) {
      const values = { ...fromSettings({}), requestsPerHost: text };
      const result = checkForm(values);
      expect(result.ok, text).to.equal(false);
      const form = await mountForm({ initial: values, errors: result.ok ? {} : result.errors });
      const perHost = form.byTestId<HTMLInputElement>('requests-per-host');
      expect(form.byTestId('requests-per-host-error').textContent, text).to.equal(message);
      expect(perHost.getAttribute('aria-invalid')).to.equal('true');
      expect(descriptionOf(perHost)).to.include(message);
      expect(perHost.parentElement?.contains(form.byTestId('requests-per-host-error'))).to.equal(true);
      expect(form.container.querySelectorAll('[aria-invalid="true"]')).to.have.lengthOf(1);
      // Unmounted before the next one: forms in separate roots may get the same ids.
      await act(() => {
        render(null, form.container);
      });
      form.container.remove();
    }
  });

  it('names a size out of range in MiB next to the size field', async () => {
    const values = { ...fromSettings({}), maxBodyMiB: '2048' };
    const result = checkForm(values);
    const form = await mountForm({ initial: values, errors: result.ok ? {} : result.errors });
    const validator = validateSettings({ startUrl: 'https://a.test/', maxBodyBytes: 2048 * BYTES_PER_MIB });
    expect(form.byTestId('max-body-size-error').textContent).to.equal(
      fieldErrors(validator.ok ? [] : validator.errors).maxBodyBytes,
    );
    expect(form.byTestId('max-body-size-error').textContent).to.equal(
      'Max body size must be from 0.001 MiB to 1024 MiB, not 2048 MiB',
    );
  });

  it('fits 380 px without sideways scrolling, two number fields a row', async () => {
    await loadStyles();
    const form = await mountForm({
      width: 356,
      errors: { delayMs: 'Delay must be from 0 s to 3600 s, not -100000000000000000000 s' },
    });
    const root = form.byTestId('settings-form');
    expect(root.scrollWidth).to.be.at.most(root.clientWidth);
    for (const field of FIELDS) {
      const box = form.byTestId(field.testId).getBoundingClientRect();
      const outer = form.container.getBoundingClientRect();
      expect(box.right, field.testId).to.be.at.most(outer.right + 0.5);
      expect(box.width, field.testId).to.be.above(0);
    }
    const maxPages = form.byTestId('max-pages').getBoundingClientRect();
    const maxDepth = form.byTestId('max-depth').getBoundingClientRect();
    expect(maxDepth.top).to.equal(maxPages.top);
    expect(maxDepth.left).to.be.above(maxPages.right);
  });
});
