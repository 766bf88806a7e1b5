"""Small widgets every area uses: explained-error panel, notice bar, scrolling, layout clearing."""
