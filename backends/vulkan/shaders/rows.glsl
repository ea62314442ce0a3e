// Rows of an f32 activation of up to three dimensions [ne0, ne1, ne2]:
// row r is (r % ne1, r / ne1), its first float at off + i1·nb1 + i2·nb2
// (strides in floats; views keep their parent's strides).
uint rowStart(uint r, uint ne1, uint off, uint nb1, uint nb2)
{
    return off + (r % ne1) * nb1 + (r / ne1) * nb2;
}
