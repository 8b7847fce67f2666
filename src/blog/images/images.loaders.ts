import DataLoader from 'dataloader';

import { Image } from './image.entity';
import { ImagesService } from './images.service';
import { BlogLoaders } from '../blog-loaders';

/** Images by id, for every image the request reads, in one statement (a cover, an avatar). */
export function imageById(
  loaders: BlogLoaders,
  images: ImagesService,
): DataLoader<string, Image | null> {
  return loaders.featureLoader(
    'imageById',
    () => new DataLoader<string, Image | null>((ids) => images.findByIds(ids)),
  );
}
