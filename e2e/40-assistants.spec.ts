// Issue 17: assistants (named instructions and settings, personal or shared by an admin) and a
// conversation's own instructions, which reach the model as the system message above the host's guidance.
// Who may see, use, share and change an assistant, and what is refused, is in 50-assistants-access.spec.ts.
import { type BrowserContext, expect, test } from '@playwright/test';
import { answered, assistantsUsers, requestWith, systemOf, tag } from './assistants-helpers';
import { assistantMessages, conversationIdFromUrl, originHeaders, send } from './helpers';

let admin: BrowserContext;
let bob: BrowserContext;
let carol: BrowserContext;

test.beforeAll(async ({ browser }) => {
  ({ admin, bob, carol } = await assistantsUsers(browser, 's40'));
});

test.afterAll(async () => {
  await Promise.all([admin.close(), bob.close(), carol.close()]);
});

test('create an assistant, start "New chat with …": its instructions are the system message; editing the conversation’s instructions changes the next one', async () => {
  const page = await bob.newPage();
  const name = `Pirate ${tag()}`;
  const instructions = `Always answer like a pirate. (${tag()})`;
  await page.goto('/');
  await page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('link', { name: 'Assistants' })
    .click();
  await expect(page.getByRole('heading', { name: 'Assistants', level: 1 })).toBeVisible();

  // A field error shows beside its field.
  await page.getByRole('button', { name: 'New assistant' }).click();
  const form = page.getByRole('dialog', { name: 'New assistant' });
  await form.getByRole('button', { name: 'Create' }).click();
  const nameBox = form.getByRole('textbox', { name: 'Name' });
  await expect(nameBox).toHaveAttribute('aria-invalid', 'true');
  await expect(nameBox).toHaveAccessibleDescription('must not be empty');
  await expect(nameBox).toBeFocused();
  await expect(form.getByRole('alert')).toHaveText('Check the fields marked below.');

  await form.getByRole('textbox', { name: 'Name' }).fill(name);
  await form.getByRole('textbox', { name: 'Instructions' }).fill(instructions);
  await form.getByRole('spinbutton', { name: 'Temperature' }).fill('0.3');
  await form.getByRole('combobox', { name: 'Tool mode' }).selectOption('off');
  // Only admins share.
  await expect(form.getByRole('checkbox', { name: 'Share with everyone' })).toHaveCount(0);
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form).toBeHidden();
  const item = page.locator(`[data-assistant="${name}"]`);
  await expect(item).toContainText(instructions);

  await item.getByRole('link', { name: `New chat with ${name}` }).click();
  await expect(page.locator('header').getByText(name, { exact: true })).toBeVisible();
  // Its settings seed the new conversation's.
  await expect(page.getByRole('button', { name: /^Tools · / })).toHaveText('Tools · Off');
  const first = `first ${tag()}`;
  await send(page, first);
  await expect(assistantMessages(page).last()).toContainText(`You said: ${first}`);
  await answered(page);
  const body = await requestWith(page, first);
  expect(systemOf(body).startsWith(`${instructions}\n\n`)).toBe(true);
  expect(systemOf(body).length).toBeGreaterThan(instructions.length + 20); // the host's guidance follows
  expect(body.temperature).toBe(0.3);
  expect(body).not.toHaveProperty('tools');

  const id = conversationIdFromUrl(page);
  const stored = await (await page.request.get(`/api/conversations/${id}`)).json();
  expect(stored).toMatchObject({ instructions, temperature: 0.3, toolMode: 'off' });

  // The header's "Instructions" edits this conversation's own instructions.
  await page.locator('header').getByRole('button', { name: 'Instructions' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conversation instructions' });
  const box = dialog.getByRole('textbox', { name: 'Instructions' });
  await expect(box).toHaveValue(instructions);
  const edited = `Answer only in haiku. (${tag()})`;
  await box.fill(edited);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const second = `second ${tag()}`;
  await send(page, second);
  await expect(assistantMessages(page).last()).toContainText(`You said: ${second}`);
  await answered(page);
  const next = systemOf(await requestWith(page, second));
  expect(next.startsWith(`${edited}\n\n`)).toBe(true);
  expect(next).not.toContain(instructions);

  // After a reload: the assistant in the header, the edited instructions in the dialog.
  await page.reload();
  await expect(page.locator('header').getByText(name, { exact: true })).toBeVisible();
  await page.locator('header').getByRole('button', { name: 'Instructions' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Instructions' })).toHaveValue(edited);
  await page.keyboard.press('Escape');

  // On a phone the header's actions (in its "More actions" menu) and the assistants page still fit.
  await page.setViewportSize({ width: 390, height: 844 });
  const more = page.locator('header').getByRole('button', { name: 'More actions' });
  await expect(more).toBeInViewport();
  await more.click();
  const menu = page.getByRole('menu');
  for (const name of ['Instructions', 'Share', 'Markdown', 'JSON']) {
    await expect(menu.getByRole('menuitem', { name })).toBeInViewport();
  }
  await page.keyboard.press('Escape');

  // Edit and delete from the list.
  await page.goto('/assistants');
  await expect(item.getByRole('button', { name: `Edit ${name}` })).toBeInViewport();
  await page.setViewportSize({ width: 1280, height: 800 });
  await item.getByRole('button', { name: `Edit ${name}` }).click();
  const editForm = page.getByRole('dialog', { name: `Edit ${name}` });
  await editForm.getByRole('textbox', { name: 'Name' }).fill(`${name} II`);
  await editForm.getByRole('button', { name: 'Save' }).click();
  const renamed = page.locator(`[data-assistant="${name} II"]`);
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete assistant?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(renamed).toHaveCount(0);
  // The conversation keeps its own instructions.
  expect((await (await page.request.get(`/api/conversations/${id}`)).json()).instructions).toBe(edited);
  await page.close();
});

test('one assistant edited in two tabs: the later save says so, keeps its draft and writes nothing; one deleted meanwhile says so', async () => {
  const name = `Tabs ${tag()}`;
  const made = await bob.request.post('/api/assistants', {
    headers: originHeaders(),
    data: { name, instructions: 'first instructions' },
  });
  expect(made.status()).toBe(201);
  const tabs = [await bob.newPage(), await bob.newPage()] as const;
  const forms = [];
  for (const tab of tabs) {
    await tab.goto('/assistants');
    await tab
      .locator(`[data-assistant="${name}"]`)
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    const form = tab.getByRole('dialog', { name: `Edit ${name}` });
    await expect(form.getByRole('textbox', { name: 'Instructions' })).toHaveValue('first instructions');
    forms.push(form);
  }
  const [one, two] = forms as [(typeof forms)[0], (typeof forms)[0]];
  await one.getByRole('textbox', { name: 'Instructions' }).fill('from tab one');
  await one.getByRole('button', { name: 'Save' }).click();
  await expect(one).toBeHidden();

  await two.getByRole('textbox', { name: 'Instructions' }).fill('from tab two');
  await two.getByRole('button', { name: 'Save' }).click();
  await expect(two.getByRole('alert')).toHaveText(
    /This assistant was changed since you opened it \(in another tab or by another admin\)\..*your edits are still in the form/,
  );
  await expect(two.getByRole('textbox', { name: 'Instructions' })).toHaveValue('from tab two');
  const stored = async () =>
    (
      (await (await bob.request.get('/api/assistants')).json()).items as Array<{
        name: string;
        instructions: string;
      }>
    )
      .filter((a) => a.name === name)
      .map((a) => a.instructions);
  expect(await stored()).toEqual(['from tab one']);

  // Opened again, the form shows the other tab's save, and saving it then works.
  await two.getByRole('button', { name: 'Cancel' }).click();
  const item = tabs[1].locator(`[data-assistant="${name}"]`);
  await expect(item).toContainText('from tab one');
  await item.getByRole('button', { name: `Edit ${name}` }).click();
  const again = tabs[1].getByRole('dialog', { name: `Edit ${name}` });
  await expect(again.getByRole('textbox', { name: 'Instructions' })).toHaveValue('from tab one');
  await again.getByRole('textbox', { name: 'Instructions' }).fill('from tab two');
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(again).toBeHidden();
  expect(await stored()).toEqual(['from tab two']);

  // Deleted in one tab while the other edits: the save says so and the list drops it.
  await tabs[0].reload();
  await tabs[0]
    .locator(`[data-assistant="${name}"]`)
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  const editing = tabs[0].getByRole('dialog', { name: `Edit ${name}` });
  await item.getByRole('button', { name: 'Delete' }).click();
  await tabs[1]
    .getByRole('dialog', { name: 'Delete assistant?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(item).toHaveCount(0);
  await editing.getByRole('textbox', { name: 'Name' }).fill(`${name} renamed`);
  await editing.getByRole('button', { name: 'Save' }).click();
  await expect(editing.getByRole('alert')).toHaveText(/This assistant was deleted since you opened it/);
  await editing.getByRole('button', { name: 'Cancel' }).click();
  await expect(tabs[0].locator(`[data-assistant^="${name}"]`)).toHaveCount(0);
  expect(await stored()).toEqual([]);
  for (const tab of tabs) await tab.close();
});
