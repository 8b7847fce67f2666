import type { CorpusLine } from './corpus';
import { CYD, MISSING, P1, P2, PASSWORD } from './seed';
import { I1, I2, I3 } from './seed-images';

const IMAGE = 'id url width height format alt bytes variants { width height format url }';
const COVER = `coverImage { url alt caption image { ${IMAGE} } } seo { imageUrl }`;
const PROFILE =
  'mutation ($input: UpdateProfileInput!) { updateProfile(input: $input) { id avatar } }';

/**
 * Covers and avatars of uploaded images (issue 66): `CoverImageInput.imageId`,
 * `UpdateProfileInput.avatarImageId`, their refusals, and their URLs as read. The image queries
 * and mutations themselves are in corpus-uploads.ts; the seed's images are rows only
 * (seed-images.ts).
 */
// prettier-ignore
export const imaging: CorpusLine[] = [
  ['coverImage: an uploaded image', `{ post(id: "${P2}") { id ${COVER} } }`],
  ['coverImage: every post, with avatars', '{ posts { id coverImage { url image { id } } author { handle avatar } } }'],
  ['coverImage: a page of cards', `{ postsConnection(first: 5) { edges { node { id ${COVER} } } } }`],
  ['avatar: an uploaded image', `{ user(id: "${CYD}") { handle avatar } }`],
  ['avatar: every user', '{ users { handle avatar } }'],
  ['avatar: authors of comments', `{ post(id: "${P1}") { comments { author { handle avatar } } } }`],
  ['createPost: an uploaded cover', `mutation { createPost(input: {title: "Pictured", content: "x", coverImage: {imageId: "${I3}", alt: "Alt", caption: "Caption"}}) { id ${COVER} } }`, null, 'user'],
  ['createPost: an uploaded cover, id in upper case', `mutation { createPost(input: {title: "Pictured", content: "x", coverImage: {imageId: "${I3.toUpperCase()}"}}) { ${COVER} } }`, null, 'user'],
  ['createPost: a cover with imageId and url', `mutation { createPost(input: {title: "C", content: "x", coverImage: {imageId: "${I3}", url: "https://img.example.com/c.png"}}) { id } }`, null, 'user'],
  ['createPost: a cover with neither imageId nor url', 'mutation { createPost(input: {title: "C", content: "x", coverImage: {alt: "Alone"}}) { id } }', null, 'user'],
  ["createPost: a cover of someone else's image", `mutation { createPost(input: {title: "C", content: "x", coverImage: {imageId: "${I2}"}}) { id } }`, null, 'user'],
  ['createPost: a cover of a missing image', `mutation { createPost(input: {title: "C", content: "x", coverImage: {imageId: "${MISSING}"}}) { id } }`, null, 'user'],
  ['createPost: a cover image id that is no id', 'mutation { createPost(input: {title: "C", content: "x", coverImage: {imageId: "nope"}}) { id } }', null, 'user'],
  ['createPost: an uploaded cover, variables', `mutation ($input: CreatePostInput!) { createPost(input: $input) { ${COVER} } }`, { input: { title: 'Vars', content: 'x', coverImage: { imageId: I1, url: null } } }, 'user'],
  ['updatePost: an uploaded cover to a URL', `mutation { updatePost(id: "${P2}", input: {coverImage: {url: "https://img.example.com/d.png"}}) { ${COVER} } }`, null, 'user'],
  ['updatePost: a cover to an uploaded image', `mutation { updatePost(id: "${P1}", input: {coverImage: {imageId: "${I3}", alt: "New"}}) { ${COVER} } }`, null, 'user'],
  ['updatePost: remove an uploaded cover', `mutation { updatePost(id: "${P2}", input: {coverImage: null}) { ${COVER} } }`, null, 'user'],
  ["updatePost: the admin, a cover of the author's image", `mutation { updatePost(id: "${P1}", input: {coverImage: {imageId: "${I1}"}}) { coverImage { url } } }`, null, 'admin'],
  ["updatePost: the admin, a cover of another user's image", `mutation { updatePost(id: "${P1}", input: {coverImage: {imageId: "${I2}"}}) { id } }`, null, 'admin'],
  ["updatePost: a cover of someone else's image", `mutation { updatePost(id: "${P1}", input: {coverImage: {imageId: "${I2}"}}) { id } }`, null, 'user'],
  ['updateProfile: avatarImageId', `mutation { updateProfile(input: {avatarImageId: "${I1}"}) { id avatar } }`, null, 'user'],
  ['updateProfile: avatarImageId then a name', `mutation { a: updateProfile(input: {avatarImageId: "${I3}"}) { avatar } b: updateProfile(input: {name: "Robert"}) { name avatar } }`, null, 'user'],
  ['updateProfile: avatarImageId and avatar', `mutation { updateProfile(input: {avatarImageId: "${I1}", avatar: "https://example.com/a.png"}) { avatar } }`, null, 'user'],
  ["updateProfile: avatarImageId of someone else's image", `mutation { updateProfile(input: {avatarImageId: "${I2}"}) { avatar } }`, null, 'user'],
  ['updateProfile: avatarImageId of a missing image', `mutation { updateProfile(input: {avatarImageId: "${MISSING}"}) { avatar } }`, null, 'user'],
  ['updateProfile: avatarImageId null', 'mutation { updateProfile(input: {avatarImageId: null}) { avatar } }', null, 'other'],
  ['updateProfile: an avatar URL replaces the image', 'mutation { updateProfile(input: {avatar: "https://example.com/cyd.png"}) { avatar } }', null, 'other'],
  ['updateProfile: avatarImageId, variables', PROFILE, { input: { avatarImageId: I3 } }, 'user'],
  ['updateProfile: avatarImageId and avatar null, variables', PROFILE, { input: { avatarImageId: I3, avatar: null } }, 'user'],
  ['deleteAccount: with an image as avatar', `mutation { deleteAccount(password: "${PASSWORD}") }`, null, 'other'],
];
