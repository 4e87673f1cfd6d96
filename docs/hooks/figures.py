"""MkDocs hook: serve the committed figures (figures/*.png at the repository's root) under figures/ of the
site, so that the guide shows the very files README's gallery links to, without a copy inside docs/."""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File


def on_files(files, config):
    root = Path(config.config_file_path).parent
    for png in sorted((root / "figures").glob("*.png")):
        files.append(
            File(
                f"figures/{png.name}",
                src_dir=str(root),
                dest_dir=config.site_dir,
                use_directory_urls=config.use_directory_urls,
            )
        )
    return files
