import { accountMail, emailChangedMail, escapeHtml, lifetimeInWords } from './account-mails';
import { AccountTokenPurpose } from './account-tokens';

describe('account mails', () => {
  const facts = {
    name: 'Ada <script>alert("x")</script> & Co',
    link: 'https://blog.example.com/reset-password?view=a&token=abc',
    host: 'blog.example.com',
    ttlMs: 30 * 60_000,
  };

  it('should escape everything it puts into the HTML part', () => {
    const { html } = accountMail(AccountTokenPurpose.PasswordReset, facts);

    expect(html).not.toContain('<script>');
    expect(html).toContain('Ada &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(html).toContain('href="https://blog.example.com/reset-password?view=a&amp;token=abc"');
  });

  it('should carry the link, the lifetime and the site in the text part and the subject', () => {
    const { subject, text } = accountMail(AccountTokenPurpose.EmailVerification, facts);

    expect(subject).toBe('Confirm your email address on blog.example.com');
    expect(text).toContain(`Confirm this address: ${facts.link}`);
    expect(text).toContain('The link works for 30 minutes.');
    expect(text.startsWith('Hello Ada <script>')).toBe(true);
  });

  it('should tell a former address of a change with no link, the name escaped', () => {
    const { subject, text, html } = emailChangedMail({ name: facts.name, host: facts.host });

    expect(subject).toBe('Your email address on blog.example.com was changed');
    expect(text.split('\n')[0]).toBe('Hello Ada <script>alert("x")</script> & Co,');
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('href');
    expect(text).toContain('this address no longer signs in to it');
  });

  it('should keep a name on one line', () => {
    const { text } = accountMail(AccountTokenPurpose.PasswordReset, {
      ...facts,
      name: 'Eve\r\nBcc: someone',
    });
    expect(text.split('\n')[0]).toBe('Hello Eve Bcc: someone,');
  });

  it('should say lifetimes in whole units', () => {
    expect(lifetimeInWords(30 * 60_000)).toBe('30 minutes');
    expect(lifetimeInWords(24 * 3_600_000)).toBe('1 day');
    expect(lifetimeInWords(90 * 60_000)).toBe('90 minutes');
    expect(lifetimeInWords(1000)).toBe('1 second');
    expect(lifetimeInWords(1500)).toBe('1 second');
  });

  it('should escape the five markup characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});
